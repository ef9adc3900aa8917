import type { Statistics, SummaryRow } from "../aggregate/summary-types.js";
import { InputError } from "../experiment/input-error.js";
import { pick, POINT_KEYS, type RunRow } from "../run/run-types.js";
import type { FailRule } from "./fail-rule.js";
import { loadResults, type LoadedResults } from "./load-results.js";
import { mannWhitneyP } from "./mann-whitney.js";

export type Verdict = "pass" | "fail" | "inconclusive";

export interface RuleOutcome {
  readonly point: PointLabel;
  readonly rule: string;
  /** The summary column the rule reads. */
  readonly column: string;
  readonly baseline: number | null;
  readonly current: number | null;
  /** current − baseline, and relative to the baseline when it is not 0. */
  readonly change: number | null;
  readonly relativeChange: number | null;
  /** Mann–Whitney's two-sided p on the per-run values, where the threshold was exceeded. */
  readonly p: number | null;
  readonly verdict: Verdict;
}

export type PointLabel = Pick<SummaryRow, (typeof POINT_KEYS)[number]>;

export interface CompareReport {
  readonly baseline: Side;
  readonly current: Side;
  readonly experimentChanged: boolean;
  readonly toolChanged: boolean;
  readonly rules: readonly string[];
  readonly alpha: number;
  readonly matchedPoints: number;
  readonly onlyInBaseline: readonly PointLabel[];
  readonly onlyInCurrent: readonly PointLabel[];
  readonly outcomes: readonly RuleOutcome[];
  readonly counts: Readonly<Record<Verdict, number>>;
  /** "regression" when a rule fails at some point. */
  readonly result: "pass" | "regression";
}

interface Side {
  readonly folder: string;
  readonly name: string;
  readonly hash: string;
  readonly version: string;
  readonly commit: string | null;
}

/**
 * Compares two result folders grid point by grid point (matched on parameters). A rule fails at a point
 * when its statistic moved by more than the threshold, either way, *and* a two-sided Mann–Whitney U test
 * on the per-run values finds the two samples different at level alpha; a move beyond the threshold that
 * the test cannot confirm (too few repeats, noise) is "inconclusive". Identical folders always pass.
 */
export function compareResults(baselineFolder: string, currentFolder: string, rules: readonly FailRule[], alpha = 0.05): CompareReport {
  const baseline = loadResults(baselineFolder);
  const current = loadResults(currentFolder);
  const outcomes: RuleOutcome[] = [];
  let matchedPoints = 0;
  for (const [key, before] of baseline.points) {
    const after = current.points.get(key);
    if (after === undefined) continue;
    matchedPoints++;
    for (const rule of rules) outcomes.push(judge(rule, before, after, baseline, current, key, alpha));
  }
  const onlyIn = (a: LoadedResults, b: LoadedResults) => [...a.points.entries()].filter(([key]) => !b.points.has(key)).map(([, row]) => label(row));
  const counts = { pass: 0, fail: 0, inconclusive: 0 };
  for (const outcome of outcomes) counts[outcome.verdict]++;
  return {
    baseline: side(baseline),
    current: side(current),
    experimentChanged: baseline.hash !== current.hash,
    toolChanged: baseline.tool.version !== current.tool.version || baseline.tool.git?.commit !== current.tool.git?.commit,
    rules: rules.map((rule) => rule.text),
    alpha,
    matchedPoints,
    onlyInBaseline: onlyIn(baseline, current),
    onlyInCurrent: onlyIn(current, baseline),
    outcomes,
    counts,
    result: counts.fail > 0 ? "regression" : "pass",
  };
}

/** `ratio.<bound>` reads the max-margin separator's ratio, or the planted one's when the solver was off. */
export function metricColumn(metric: string, results: LoadedResults): string {
  const alias = /^ratio\.(novikoff|snapp|hu|optimised|best)$/.exec(metric);
  if (!alias) return metric;
  if (alias[1] === "best") return "bestRatio";
  const bound = alias[1]!.charAt(0).toUpperCase() + alias[1]!.slice(1);
  return `${results.optimal ? "optimal" : "planted"}${bound}Ratio`;
}

function judge(rule: FailRule, before: SummaryRow, after: SummaryRow, baseline: LoadedResults, current: LoadedResults, key: string, alpha: number): RuleOutcome {
  const column = metricColumn(rule.metric, baseline);
  const statistics = (row: SummaryRow) => (row as unknown as Record<string, Statistics | undefined>)[column];
  const b = statistics(before);
  if (b === undefined || typeof b !== "object" || b === null || !(rule.statistic in b)) {
    throw new InputError(`--fail ${rule.text}: ${column} is not a metric of the summary (use updates, bestRatio, a …Ratio column, or ratio.<bound>)`);
  }
  const baseValue = b[rule.statistic];
  const currentValue = statistics(after)?.[rule.statistic] ?? null;
  const change = baseValue === null || currentValue === null ? null : currentValue - baseValue;
  const relativeChange = change === null || baseValue === 0 ? null : change / Math.abs(baseValue!);
  let verdict: Verdict = "pass";
  let p: number | null = null;
  if (change === null) {
    verdict = baseValue === currentValue ? "pass" : "inconclusive";
  } else {
    const limit = rule.threshold.relative ? rule.threshold.value * Math.abs(baseValue!) : rule.threshold.value;
    if (Math.abs(change) > limit) {
      const values = (results: LoadedResults) =>
        (results.runs.get(key) ?? [])
          .map((row) => (row as unknown as Record<string, number | null | undefined>)[column])
          .filter((value): value is number => typeof value === "number");
      p = mannWhitneyP(values(baseline), values(current));
      verdict = p !== null && p < alpha ? "fail" : "inconclusive";
    }
  }
  return { point: label(before), rule: rule.text, column, baseline: baseValue, current: currentValue, change, relativeChange, p, verdict };
}

function label(row: SummaryRow | RunRow): PointLabel {
  return pick(row, POINT_KEYS);
}

function side(results: LoadedResults): Side {
  return { folder: results.folder, name: results.name, hash: results.hash, version: results.tool.version, commit: results.tool.git?.commit ?? null };
}
