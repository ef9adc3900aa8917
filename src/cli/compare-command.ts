import type { Argv } from "yargs";
import { CORRECTIONS, type Correction } from "../compare/adjust-p.js";
import { compareMarkdown } from "../compare/compare-markdown.js";
import { compareResults } from "../compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule, RATIO_ALIAS_WORDS } from "../compare/fail-rule.js";
import { EXIT, UsageError } from "./cli-error.js";

export function compareBuilder(yargs: Argv) {
  return yargs
    .positional("baseline", { type: "string", describe: "The reference result folder", demandOption: true })
    .positional("current", { type: "string", describe: "The result folder to check", demandOption: true })
    .option("fail", {
      type: "string",
      array: true,
      // A bare --fail (an unset variable in a script) is refused, not read as the default rules: yargs checks
      // requiresArg only for an option without a default, so the defaults are applied in the handler.
      requiresArg: true,
      describe:
        "A rule, repeatable, added to the safety rules converged and errors (--no-safety-rules: the rules given only): converged (a confirmed drop of the converged share), errors (any new error run), " +
        `or statistic:metric:threshold with statistic mean, sd, min, p10, p25, median, p75, p90 or max, metric updates, epochs, a …Ratio or …Bound column or ${RATIO_ALIAS_WORDS}, threshold a number or a percentage`,
      defaultDescription: DEFAULT_FAIL_RULES.join(" "),
    })
    .option("safety-rules", {
      type: "boolean",
      describe: "Keep converged and errors beside the --fail rules given (--no-safety-rules drops them: then an all-error candidate can pass)",
      default: true,
    })
    .option("two-sided", {
      type: "boolean",
      describe: "Fail a statistic rule on a fall beyond its threshold as well as on a rise (two-sided tests); by default only a rise fails (more updates, larger bounds or ratios, a wider spread): an improvement is reported, not failed",
      default: false,
    })
    .option("alpha", { type: "number", describe: "Level of the tests that confirm a change, after the correction", default: 0.05 })
    .option("correction", {
      type: "string",
      choices: CORRECTIONS as string[],
      describe: "How the p-values of all checks are adjusted: holm (the chance of any false failure ≤ alpha), bh (Benjamini–Hochberg: the expected share of false failures ≤ alpha), none",
      default: "holm",
    })
    .option("accept-point-changes", {
      type: "boolean",
      describe: "Do not fail on grid points found in one folder only (they are still reported); folders with no grid point in common are refused all the same",
      default: false,
    })
    .option("allow-data-version-change", { type: "boolean", describe: "Compare folders whose data versions differ (refused otherwise: their runs drew different data)", default: false })
    .option("all", { type: "boolean", describe: "List every check in the Markdown, passing ones too", default: false })
    .option("json", { type: "boolean", describe: "Print the comparison as JSON (every check, p-values before and after the correction) instead of Markdown", default: false });
}

interface CompareArguments {
  baseline: string;
  current: string;
  fail?: string[];
  alpha: number;
  correction: string;
  acceptPointChanges: boolean;
  allowDataVersionChange: boolean;
  safetyRules: boolean;
  twoSided: boolean;
  all: boolean;
  json: boolean;
}

/** Exit code 0: pass; 1: a regression; 2: a usage mistake or a folder refused; 3: an internal error (the CLI's own rule). */
export function compareHandler(argv: CompareArguments): number {
  const rules = (argv.fail ?? DEFAULT_FAIL_RULES).map(parseFailRule);
  if (!(argv.alpha > 0 && argv.alpha < 1)) throw new UsageError(`--alpha ${argv.alpha}: must be between 0 and 1`);
  const report = compareResults(argv.baseline, argv.current, rules, {
    alpha: argv.alpha,
    correction: argv.correction as Correction,
    acceptPointChanges: argv.acceptPointChanges,
    allowDataVersionChange: argv.allowDataVersionChange,
    safetyRules: argv.safetyRules,
    twoSided: argv.twoSided,
  });
  process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : compareMarkdown(report, argv.all));
  return report.result === "pass" ? EXIT.ok : EXIT.failed;
}
