import type { Argv } from "yargs";
import { compareMarkdown } from "../compare/compare-markdown.js";
import { compareResults } from "../compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule } from "../compare/fail-rule.js";
import { EXIT, UsageError } from "./cli-error.js";

export function compareBuilder(yargs: Argv) {
  return yargs
    .positional("baseline", { type: "string", describe: "The reference result folder", demandOption: true })
    .positional("current", { type: "string", describe: "The result folder to check", demandOption: true })
    .option("fail", {
      type: "string",
      array: true,
      describe: "statistic:metric:threshold, repeatable; statistic one of mean, sd, min, median, p90, max; metric updates, bestRatio, a …Ratio column or ratio.<novikoff|snapp|hu|optimised|best>; threshold a number or a percentage",
      default: DEFAULT_FAIL_RULES,
    })
    .option("alpha", { type: "number", describe: "Level of the Mann–Whitney U test that confirms a change", default: 0.05 })
    .option("all", { type: "boolean", describe: "List every grid point, not only those that did not pass", default: false })
    .option("json", { type: "boolean", describe: "Print the comparison as JSON instead of Markdown", default: false });
}

/** Exit code 0: pass; 1: a regression; 2: a usage mistake (the CLI's own rule). */
export function compareHandler(argv: { baseline: string; current: string; fail: string[]; alpha: number; all: boolean; json: boolean }): number {
  const rules = argv.fail.map(parseFailRule);
  if (!(argv.alpha > 0 && argv.alpha < 1)) throw new UsageError(`--alpha ${argv.alpha}: must be between 0 and 1`);
  const report = compareResults(argv.baseline, argv.current, rules, argv.alpha);
  process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : compareMarkdown(report, argv.all));
  return report.result === "pass" ? EXIT.ok : EXIT.failed;
}
