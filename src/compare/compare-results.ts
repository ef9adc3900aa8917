import { boundKeyOfColumn, boundModes, capitalised, describeBounds } from "../bounds/bound-choice.js";
import { InputError } from "../vocabulary/input-error.js";
import { adjustP, weightedHolm, type Correction } from "./adjust-p.js";
import type { Check, PointLabel, RuleOutcome, Verdict } from "./compare-types.js";
import { detectableChange } from "./detectable-change.js";
import { DEFAULT_FAIL_RULES, parseFailRule, RATIO_ALIAS, type FailRule } from "./fail-rule.js";
import { loadResults, type LoadedResults } from "./load-results.js";
import { checkPoint, label } from "./point-checks.js";
import { sweepConvergence } from "./sweep-convergence.js";
import { sweepStatistic } from "./sweep-statistic.js";

export type { PointLabel, RuleOutcome, Verdict } from "./compare-types.js";

export interface CompareOptions {
  readonly alpha?: number;
  /** How the p-values of all checks are adjusted (default holm). */
  readonly correction?: Correction;
  /** Points found on one side only, or no point in common, do not fail the comparison. */
  readonly acceptPointChanges?: boolean;
  /** Compare folders whose data versions differ (docs/theory.md, "Data versions"); refused otherwise. */
  readonly allowDataVersionChange?: boolean;
  /**
   * Keep the safety rules (`converged`, `errors`) beside the rules given (default true): a rule of one's
   * own never lets an all-error or none-converged candidate pass unless this is false.
   */
  readonly safetyRules?: boolean;
  /**
   * A statistic rule fails on a rise only (more updates or epochs, larger bounds or ratios, a wider spread:
   * one-sided tests) unless this is true: then a fall beyond the threshold fails too (two-sided tests).
   */
  readonly twoSided?: boolean;
}

export interface CompareReport {
  readonly baseline: Side;
  readonly current: Side;
  readonly experimentChanged: boolean;
  readonly toolChanged: boolean;
  readonly dataVersionChanged: boolean;
  readonly rules: readonly string[];
  /** Whether statistic rules fail on a fall too (CompareOptions.twoSided). */
  readonly twoSided: boolean;
  readonly alpha: number;
  readonly correction: Correction;
  readonly matchedPoints: number;
  readonly onlyInBaseline: readonly PointLabel[];
  readonly onlyInCurrent: readonly PointLabel[];
  /** Points on one side only (or none matched) fail the comparison unless accepted. */
  readonly pointChangesAccepted: boolean;
  readonly outcomes: readonly RuleOutcome[];
  readonly counts: Readonly<Record<Verdict, number>>;
  /** Why the comparison fails, one line each; empty when it passes. */
  readonly failures: readonly string[];
  readonly result: "pass" | "regression";
}

interface Side {
  readonly folder: string;
  readonly name: string;
  readonly hash: string;
  readonly version: string;
  readonly commit: string | null;
  readonly dataVersion: number;
}


/**
 * Compares two result folders grid point by grid point (matched on parameters), for CI regression checks.
 * Every rule is checked at every matched point (and `converged` over the whole sweep as well); the
 * p-values of all these checks are adjusted together (Holm by default), and a check fails where the change
 * its rule watches happened and the adjusted p < alpha. A change the test cannot confirm is
 * "inconclusive", reported but not failing; a new error fails without a test. Points found on one side
 * only, and a comparison where no point matched, fail unless accepted. Identical folders always pass.
 * The rules are parsed ones or their texts (`"median:updates:5%"`, as `--fail` takes them); DEFAULT_FAIL_RULES
 * where none are given.
 */
export function compareResults(
  baselineFolder: string,
  currentFolder: string,
  ruleTexts: readonly (FailRule | string)[] = DEFAULT_FAIL_RULES,
  options: CompareOptions = {},
): CompareReport {
  const given = ruleTexts.map((rule) => (typeof rule === "string" ? parseFailRule(rule) : rule));
  const rules = options.safetyRules === false ? given : withSafetyRules(given);
  const alpha = options.alpha ?? 0.05;
  const correction = options.correction ?? "holm";
  const twoSided = options.twoSided ?? false;
  // Of each run, only the columns the rules read (a rule's ratio alias, by whether the folder computed the max-margin separator).
  const columns = (optimal: boolean) => rules.flatMap((rule) => (rule.kind === "statistic" ? [metricColumnOf(rule.metric, optimal)] : []));
  const baseline = loadResults(baselineFolder, columns);
  const current = loadResults(currentFolder, columns);
  if (baseline.dataVersion !== current.dataVersion && !options.allowDataVersionChange) {
    throw new InputError(
      `${baselineFolder} and ${currentFolder} hold data of different data versions (${baseline.dataVersion} and ${current.dataVersion}): ` +
        "their runs drew different data sets, so their differences are not the code's; --allow-data-version-change compares them anyway",
    );
  }
  const holds = (shard: LoadedResults["shard"]) => (shard === null ? "the whole sweep" : `shard ${shard.index}/${shard.count}`);
  if (holds(baseline.shard) !== holds(current.shard)) {
    // Another shard holds other repeats of the same points: its differences would be the split's, not the code's.
    throw new InputError(
      `${baselineFolder} holds ${holds(baseline.shard)}, ${currentFolder} ${holds(current.shard)}: compare like with like (the same shard of each sweep, or merge the shards first)`,
    );
  }
  const columnOf = (rule: FailRule) => (rule.kind === "statistic" ? metricColumn(rule.metric, baseline) : null);
  for (const rule of rules) if (rule.kind === "statistic") sameBounds(columnOf(rule)!, baseline, current);
  const checks: Check[] = [];
  const matched: string[] = [];
  for (const [key, before] of baseline.points) {
    const after = current.points.get(key);
    if (after === undefined) continue;
    matched.push(key);
    for (const rule of rules) checks.push(checkPoint(rule, columnOf(rule), key, before, after, baseline, current, twoSided));
  }
  if (matched.length === 0 && options.acceptPointChanges) {
    // Accepting points on one side only is not accepting an empty comparison: nothing would have been checked.
    throw new InputError(`${baselineFolder} and ${currentFolder} have no grid point in common: nothing to compare (--accept-point-changes accepts points found on one side only, not a comparison of nothing)`);
  }
  if (matched.length > 0) {
    for (const rule of rules) {
      if (rule.kind === "converged") checks.push(sweepConvergence(matched, baseline, current));
      if (rule.kind === "statistic") checks.push(sweepStatistic(rule, columnOf(rule)!, matched, baseline, current, twoSided));
    }
  }
  // A hierarchy: the sweep's checks (which a regression anywhere can fail) and the points' (which localise
  // it), each level corrected on its own. At the sweep's level Holm weighs the convergence check, the safety
  // rule, at SAFETY_WEIGHT of alpha, and the statistic rules share the rest: however many rules are added, a
  // point whose 5 paired runs all stop converging (p = 1/32) fails the gate at alpha 0.05 (0.8 · 0.05 = 0.04),
  // and at 0.04 (0.032). (0.12 gave each statistic rule 0.3: with three, the collapse passed.)
  const statisticRules = rules.filter((rule) => rule.kind === "statistic").length;
  const hasConverged = rules.some((rule) => rule.kind === "converged");
  const weight = (check: Check) =>
    check.rule === "converged" ? (statisticRules === 0 ? 1 : SAFETY_WEIGHT) : (hasConverged ? 1 - SAFETY_WEIGHT : 1) / Math.max(1, statisticRules);
  const adjusted = new Array<number | null>(checks.length);
  for (const sweepLevel of [true, false]) {
    const at = checks.flatMap((check, k) => ((check.point === null) === sweepLevel ? [k] : []));
    const ps = at.map((k) => checks[k]!.p);
    const weights = at.map((k) => weight(checks[k]!));
    (sweepLevel && correction === "holm" ? weightedHolm(ps, weights) : adjustP(ps, correction)).forEach((value, j) => (adjusted[at[j]!] = value));
  }
  // Each check's level before Holm's steps (its first step: alpha over the tested checks of its level, or
  // its weight's share at the sweep's), for what it could have detected.
  const tested = checks.filter((check) => check.p !== null);
  const pointChecks = tested.filter((check) => check.point !== null).length;
  const sweepChecks = tested.length - pointChecks;
  const sweepWeights = tested.reduce((sum, check) => sum + (check.point === null ? weight(check) : 0), 0);
  const levels = checks.map((check) => {
    if (correction === "none") return alpha;
    if (check.point !== null) return alpha / Math.max(1, pointChecks);
    return correction === "holm" ? (alpha * weight(check)) / Math.max(weight(check), sweepWeights) : alpha / Math.max(1, sweepChecks);
  });
  const outcomes = checks.map(({ moved, certain, sizes, ...check }, k): RuleOutcome => {
    const adjustedP = adjusted[k] ?? null;
    const verdict: Verdict = !moved ? "pass" : certain || (adjustedP !== null && adjustedP < alpha) ? "fail" : "inconclusive";
    // The convergence tests are one-sided always (a drop); the statistic rules' as asked.
    const sidedTest = twoSided && check.rule !== "converged";
    return { ...check, adjustedP, verdict, detectable: sizes === null ? null : detectableChange(sizes, levels[k]!, sidedTest) };
  });
  const onlyIn = (a: LoadedResults, b: LoadedResults) => [...a.points.entries()].filter(([key]) => !b.points.has(key)).map(([, row]) => label(row));
  const onlyInBaseline = onlyIn(baseline, current);
  const onlyInCurrent = onlyIn(current, baseline);
  const counts = { pass: 0, fail: 0, inconclusive: 0 };
  for (const outcome of outcomes) counts[outcome.verdict]++;
  const failures: string[] = [];
  if (counts.fail > 0) failures.push(`${counts.fail} check${counts.fail > 1 ? "s" : ""} failed`);
  if (!options.acceptPointChanges) {
    if (matched.length === 0) failures.push("no grid point in common: nothing was compared");
    if (onlyInBaseline.length > 0) failures.push(`${onlyInBaseline.length} grid point${onlyInBaseline.length > 1 ? "s" : ""} of the baseline missing from the current folder`);
    if (onlyInCurrent.length > 0) failures.push(`${onlyInCurrent.length} grid point${onlyInCurrent.length > 1 ? "s" : ""} new in the current folder`);
  }
  return {
    baseline: side(baseline),
    current: side(current),
    experimentChanged: baseline.hash !== current.hash,
    toolChanged: baseline.tool.version !== current.tool.version || baseline.tool.git?.commit !== current.tool.git?.commit,
    dataVersionChanged: baseline.dataVersion !== current.dataVersion,
    rules: rules.map((rule) => rule.text),
    twoSided,
    alpha,
    correction,
    matchedPoints: matched.length,
    onlyInBaseline,
    onlyInCurrent,
    pointChangesAccepted: options.acceptPointChanges ?? false,
    outcomes,
    counts,
    failures,
    result: failures.length > 0 ? "regression" : "pass",
  };
}

/**
 * Refuses to compare a bound's column that one folder computed on runs where the other did not (their
 * `bounds` differ on it): its empty cells would read as a change of the code.
 */
function sameBounds(column: string, baseline: LoadedResults, current: LoadedResults): void {
  const key = boundKeyOfColumn(column);
  if (key === null) return;
  const [before, after] = [baseline, current].map((results) => boundModes(results.bounds)[key]);
  if (before === after) return;
  throw new InputError(
    `${baseline.folder} and ${current.folder} computed ${column} on different runs (bounds ${describeBounds(baseline.bounds)} and ${describeBounds(current.bounds)}): ` +
      `run both with the same "bounds", or compare other columns`,
  );
}

/**
 * The convergence check's share of alpha at the sweep's level (weighted Holm), the statistic rules sharing the
 * rest equally (with one, 0.8 to 0.2; with three, 0.8 to 0.067 each).
 */
export const SAFETY_WEIGHT = 0.8;

/** `ratio.<bound>` reads the max-margin separator's ratio, or the planted one's when the solver was off. */
export function metricColumn(metric: string, results: LoadedResults): string {
  return metricColumnOf(metric, results.optimal);
}

function metricColumnOf(metric: string, optimal: boolean): string {
  const alias = RATIO_ALIAS.exec(metric);
  if (!alias) return metric;
  if (alias[1] === "best") return "bestRatio";
  return `${optimal ? "optimal" : "planted"}${capitalised(alias[1]!)}Ratio`;
}

/** The safety rules (`converged`, `errors`) first, where the given rules lack them, then the given ones. */
function withSafetyRules(given: readonly FailRule[]): FailRule[] {
  const has = (kind: FailRule["kind"]) => given.some((rule) => rule.kind === kind);
  const safety = (["converged", "errors"] as const).filter((kind) => !has(kind)).map((kind) => parseFailRule(kind));
  return [...safety, ...given];
}

function side(results: LoadedResults): Side {
  return {
    folder: results.folder,
    name: results.name,
    hash: results.hash,
    version: results.tool.version,
    commit: results.tool.git?.commit ?? null,
    dataVersion: results.dataVersion,
  };
}
