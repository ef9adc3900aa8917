import { displayPath } from "../files/display-path.js";
import type { CompareReport, PointLabel, RuleOutcome } from "./compare-results.js";

/**
 * The comparison as Markdown, for a CI log, a GitHub step summary or a pull-request comment: the verdict
 * and why, the failed checks first, then what to know (changed experiment, tool or data version, points
 * on one side only), then the rest folded in <details>: the inconclusive checks (and, with `all`, the
 * passing ones), both folders, the rules and what a verdict promises.
 */
export function compareMarkdown(report: CompareReport, all = false): string {
  const { baseline: b, current: c, counts } = report;
  const lines = [`### perceptron-lab compare: ${report.result === "pass" ? "PASS" : "REGRESSION"}`, ""];
  if (report.failures.length > 0) lines.push(`Fails: ${report.failures.join("; ")}.`, "");
  lines.push(
    `${report.matchedPoints} grid points matched; ${report.outcomes.length} checks: ${counts.fail} fail, ${counts.inconclusive} inconclusive, ${counts.pass} pass.`,
  );
  lines.push(...detectableLines(report));
  const failed = report.outcomes.filter((outcome) => outcome.verdict === "fail");
  if (failed.length > 0) lines.push("", ...table(failed));
  const notes: string[] = [];
  if (report.experimentChanged) notes.push("the two experiment files differ (their SHA-256 does not match)");
  if (report.toolChanged) notes.push("the two folders were written by different versions or commits of perceptron-lab");
  if (report.dataVersionChanged) notes.push(`the data versions differ (${b.dataVersion} and ${c.dataVersion}): the runs drew different data sets`);
  for (const [where, points] of [["baseline", report.onlyInBaseline], ["current", report.onlyInCurrent]] as const) {
    if (points.length > 0) {
      notes.push(`only in ${where}: ${points.length} grid point${points.length > 1 ? "s" : ""} (${points.slice(0, 10).map(describe).join("; ")}${points.length > 10 ? "; …" : ""})${report.pointChangesAccepted ? ", accepted" : ""}`);
    }
  }
  if (notes.length > 0) lines.push("", ...notes.map((note) => `- **Note:** ${note}`));

  const rest = report.outcomes.filter((outcome) => outcome.verdict === "inconclusive" || (all && outcome.verdict === "pass"));
  const tool = (side: typeof b) => `${side.version}${side.commit ? ` @ ${side.commit.slice(0, 12)}` : ""}`;
  lines.push(
    "",
    "<details><summary>Details: " +
      `${counts.inconclusive} inconclusive${all ? `, ${counts.pass} passing` : ""} checks, the folders, the rules</summary>`,
    "",
  );
  if (rest.length > 0) lines.push(...table(rest), "");
  lines.push(
    "| | baseline | current |",
    "| --- | --- | --- |",
    `| folder | ${displayPath(b.folder)} | ${displayPath(c.folder)} |`,
    `| experiment | ${b.name} (sha256 ${b.hash.slice(0, 12)}) | ${c.name} (sha256 ${c.hash.slice(0, 12)}) |`,
    `| perceptron-lab | ${tool(b)} | ${tool(c)} |`,
    `| data version | ${b.dataVersion} | ${c.dataVersion} |`,
    "",
    `Rules: ${report.rules.map((rule) => `\`${rule}\``).join(", ")}. A check fails where the change its rule watches happened (a statistic ` +
      `beyond its threshold${report.twoSided ? " either way" : " upward"}, a drop of the converged share, a new error) and its test confirms it. Where the runs pair (the same ` +
      "repeats with the same seeds on both sides: the same experiment), the tests are paired: Wilcoxon's signed-rank test on the runs' " +
      "differences, McNemar's exact test on their convergence, and over the whole sweep a sign test (convergence) or a signed-rank test (a " +
      "statistic's mean change) over the data sets; otherwise Mann–Whitney U on the converged runs (exact on small samples) and Fisher's exact " +
      "test on the converged counts, and over the whole sweep a permutation test over the data sets. A relative threshold is read on the log " +
      "scale (log of the ratio, the same size for a doubling as for a halving), so that folders that differ only in their random stream pass. " +
      `The whole sweep's checks come first (a regression anywhere can fail them), the points' localise it; ${correctionText(report)}. ` +
      `${report.twoSided ? "A statistic rule fails on a change either way (two-sided tests). " : "A statistic rule fails on a rise only (one-sided tests): a fall is an improvement, reported, not failed (--two-sided fails it too). "}` +
      "A new error fails without a test. A change the test cannot confirm is inconclusive.",
    "",
    "</details>",
  );
  return `${lines.join("\n")}\n`;
}

/**
 * What the comparison could have confirmed at its sizes (RuleOutcome.detectable): the checks no change
 * could fail (too few runs for their level), and per rule the smallest change confirmed with 80 % power,
 * at a point (the median over the points) and over the whole sweep.
 */
function detectableLines(report: CompareReport): string[] {
  const tested = report.outcomes.filter((outcome) => outcome.detectable !== null);
  if (tested.length === 0) return [];
  const blind = tested.filter((outcome) => !outcome.detectable!.canFail);
  const lines: string[] = [];
  if (blind.length > 0) {
    const rules = [...new Set(blind.map((outcome) => `\`${outcome.rule}\`${outcome.point === null ? " (whole sweep)" : ""}`))];
    lines.push(`**Blind spots:** ${blind.length} of ${tested.length} checks cannot fail however large the change: their tests' smallest p is above their level at these sizes (${rules.join(", ")}); more repeats lift this.`);
  }
  const parts: string[] = [];
  for (const rule of report.rules) {
    if (rule === "errors") continue;
    const relative = rule.endsWith("%");
    const of = (outcomes: readonly RuleOutcome[]) => outcomes.flatMap((outcome) => (outcome.rule === rule && outcome.detectable?.change != null ? [outcome] : []));
    const points = of(tested.filter((outcome) => outcome.point !== null));
    const sweep = of(tested.filter((outcome) => outcome.point === null))[0];
    const words: string[] = [];
    if (points.length > 0) {
      const changes = points.map((outcome) => (rule === "converged" || !relative ? outcome.detectable!.change! : outcome.baseline ? outcome.detectable!.change! / Math.abs(outcome.baseline) : Infinity)).sort((x, y) => x - y);
      const middle = changes[Math.floor((changes.length - 1) / 2)]!;
      words.push(`${amount(rule, relative, middle, report.twoSided)} at a point (median over ${points.length})`);
    }
    // Over the sweep, where its figure is in the rule's units: the paired tests' (a data set's mean change, relative for a percentage; a share of the data sets).
    // (A relative rule's paired figure is a data set's mean log ratio: said as the relative change it is.)
    if (sweep !== undefined && sweep.test?.endsWith("(paired)")) {
      const figure = relative ? Math.expm1(sweep.detectable!.change!) : sweep.detectable!.change!;
      words.push(`${amount(rule, relative || rule === "converged", figure, report.twoSided, true)} over the sweep`);
    }
    if (words.length > 0) parts.push(`\`${rule}\`: ${words.join(", ")}`);
  }
  if (parts.length > 0) lines.push(`Detectable with 80 % power at these sizes: ${parts.join("; ")}.`);
  return lines.length === 0 ? [] : ["", ...lines];
}

function amount(rule: string, relative: boolean, value: number, twoSided: boolean, sweep = false): string {
  if (!Number.isFinite(value)) return "no change (a baseline of 0)";
  if (rule === "converged") return `a drop of ${(100 * value).toFixed(1)} % of the ${sweep ? "data sets" : "runs"}`;
  const move = twoSided ? "a change" : "a rise";
  return relative ? `${move} of ${(100 * value).toFixed(1)} %` : `${move} of ${value.toPrecision(3)}`;
}

function correctionText(report: CompareReport): string {
  switch (report.correction) {
    case "holm":
      return `the p-values are adjusted by Holm's method within each level (the sweep's checks, the points') and compared with ${report.alpha}, so when nothing changed the chance that any check of a level fails is at most ${report.alpha}`;
    case "bh":
      return `the p-values are adjusted by Benjamini–Hochberg within each level (the sweep's checks, the points') and compared with ${report.alpha}, so on average at most a share ${report.alpha} of a level's failing checks are false alarms`;
    case "none":
      return `each p-value is compared with ${report.alpha} as it is (no correction: among many checks some fail by chance)`;
  }
}

function table(outcomes: readonly RuleOutcome[]): string[] {
  return ["| verdict | rule | grid point | baseline | current | change | effect (95 % CI, or the level it reaches) | test | p | p (adjusted) |", "| --- | --- | --- | ---: | ---: | ---: | ---: | --- | ---: | ---: |", ...outcomes.map(row)];
}

function row(o: RuleOutcome): string {
  // A relative change is labelled as one (a percentage); an absolute one in the column's units, with its relative size beside it.
  const change =
    o.change === null ? (o.relativeChange === null ? "-" : `${signed(100 * o.relativeChange)} % (relative)`) : `${signed(o.change)}${o.relativeChange === null ? "" : ` (${signed(100 * o.relativeChange)} %)`}`;
  // The normal approximations round a p below about 1e-16 to 0.
  const p = (value: number | null) => (value === null ? "-" : value === 0 ? "< 1e-16" : value.toPrecision(2));
  const percent = o.unit === "relative change";
  const value = (x: number) => (percent ? `${signed(100 * x)} %` : signed(x));
  const level = o.effect === null || Math.abs(o.effect.level - 0.95) < 5e-4 ? "" : ` (${(100 * o.effect.level).toFixed(1)} %)`;
  const effect = o.effect === null ? "-" : `${value(o.effect.estimate)} [${value(o.effect.low)}, ${value(o.effect.high)}]${level}`;
  return `| ${o.verdict} | \`${o.rule}\` | ${o.point === null ? "whole sweep" : describe(o.point)} | ${number(o.baseline)} | ${number(o.current)} | ${change} | ${effect} | ${o.test ?? "-"} | ${p(o.p)} | ${p(o.adjustedP)} |`;
}

function describe(p: PointLabel): string {
  const shape = p.margin !== null ? ` margin=${p.margin} offset=${p.offset}` : p.c !== null ? ` c=${p.c}` : "";
  return `${p.generator} n=${p.n} d=${p.d}${shape} bias=${p.bias} eta=${p.eta} init=${p.init} ${p.order}`;
}

function number(value: number | null): string {
  return value === null ? "-" : Number(value.toPrecision(6)).toString();
}

function signed(value: number): string {
  const text = Number(value.toPrecision(4)).toString();
  return value > 0 ? `+${text}` : text;
}
