import { boundKeyOfColumn, boundModes, capitalised, describeBounds } from "../bounds/bound-choice.js";
import { mean, median } from "simple-statistics";
import { statistics } from "../aggregate/statistics.js";
import type { SummaryRow } from "../aggregate/summary-types.js";
import { InputError } from "../experiment/input-error.js";
import { pick, POINT_KEYS, type RunRow } from "../run/run-types.js";
import { adjustP, weightedHolm, type Correction } from "./adjust-p.js";
import { DEFAULT_FAIL_RULES, parseFailRule, RATIO_ALIAS, type FailRule, type StatisticRule } from "./fail-rule.js";
import { fisherDropP } from "./fisher-exact.js";
import { dataKey, loadResults, runOutcomes, type LoadedResults } from "./load-results.js";
import { mannWhitney, mannWhitneyP } from "./mann-whitney.js";
import { signedRank, signedRankP } from "./signed-rank.js";
import { signTestP } from "./sign-test.js";
import { pairedShift, shareChange, twoSampleShift, type Effect } from "./effect-size.js";
import { detectableChange, type DetectableChange, type TestSizes } from "./detectable-change.js";

export type Verdict = "pass" | "fail" | "inconclusive";

export interface RuleOutcome {
  /** The grid point, or null for a check over the whole sweep. */
  readonly point: PointLabel | null;
  readonly rule: string;
  /** What the rule reads: a run column, `converged share` or `errors`. */
  readonly column: string;
  readonly baseline: number | null;
  readonly current: number | null;
  /** current − baseline, and relative to the baseline when it is not 0. */
  readonly change: number | null;
  readonly relativeChange: number | null;
  /**
   * The test that confirms a move: paired where the two folders' runs pair (the same repeats with the same
   * seeds: "Wilcoxon signed-rank (paired)", "McNemar (paired)", "sign test over data sets (paired)"),
   * otherwise "Mann–Whitney U", "Fisher's exact test"; null for errors, which are counted, not tested.
   */
  readonly test: string | null;
  /**
   * The effect, current − baseline, with its 95 % interval (effect-size.ts): Hodges–Lehmann's shift of the
   * metric (paired or two-sample; over the sweep, of the data sets' mean changes, relative for a percentage
   * rule), or the change of the converged share; null for errors and the unpaired sweep statistic.
   */
  readonly effect: Effect | null;
  /** The test's p, before and after the correction (Holm or BH within its level: the sweep's checks, the points'); null: no test. */
  readonly p: number | null;
  readonly adjustedP: number | null;
  readonly verdict: Verdict;
  /**
   * What the check could have confirmed at its sample size (detectable-change.ts): the smallest p its test
   * can reach, whether that is below its level (else no change can fail it), and the smallest change it
   * would confirm with 80 % power; null for errors (no test).
   */
  readonly detectable: DetectableChange | null;
}

export type PointLabel = Pick<SummaryRow, (typeof POINT_KEYS)[number]>;

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

/** A check before the correction: its verdict waits for the adjusted p. */
interface Check extends Omit<RuleOutcome, "adjustedP" | "verdict" | "detectable"> {
  /** What its test ran on, for the detectable change; null: no test. */
  readonly sizes: TestSizes | null;
  /** The change the rule watches happened (beyond the threshold, a drop, a new error). */
  readonly moved: boolean;
  /** A move that fails without a test (a new error). */
  readonly certain: boolean;
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
  for (const rule of rules) if (rule.kind === "statistic") sameBounds(metricColumn(rule.metric, baseline), baseline, current);
  const checks: Check[] = [];
  const matched: string[] = [];
  for (const [key, before] of baseline.points) {
    const after = current.points.get(key);
    if (after === undefined) continue;
    matched.push(key);
    for (const rule of rules) checks.push(checkPoint(rule, key, before, after, baseline, current, twoSided));
  }
  if (matched.length > 0) {
    for (const rule of rules) {
      if (rule.kind === "converged") checks.push(sweepConvergence(matched, baseline, current));
      if (rule.kind === "statistic") checks.push(sweepStatistic(rule, matched, baseline, current, checks, twoSided));
    }
  }
  // A hierarchy: the sweep's checks (which a regression anywhere can fail) and the points' (which localise
  // it), each level corrected on its own. At the sweep's level Holm weighs the convergence check, the safety
  // rule, at SAFETY_WEIGHT of alpha beside the statistic rules: a point whose 5 paired runs all stop
  // converging (p = 1/32) fails the gate at alpha 0.05 beside one statistic rule.
  const weight = (check: Check) => (check.rule === "converged" ? SAFETY_WEIGHT : 1 - SAFETY_WEIGHT);
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
 * The convergence check's weight at the sweep's level (weighted Holm), the statistic rules sharing the rest
 * (each 1 − SAFETY_WEIGHT: with one, the split is 0.7 to 0.3 of alpha).
 */
export const SAFETY_WEIGHT = 0.7;

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

function checkPoint(rule: FailRule, key: string, before: SummaryRow, after: SummaryRow, baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  const point = label(before);
  switch (rule.kind) {
    case "statistic":
      return checkStatistic(rule, key, point, baseline, current, twoSided);
    case "errors": {
      // Errors are faults of the tool or the machine, never noise: any new one fails, without a test.
      const moved = after.errors > before.errors;
      return { point, rule: rule.text, column: "errors", ...changeOf(before.errors, after.errors), test: null, effect: null, p: null, moved, certain: moved, sizes: null };
    }
    case "converged": {
      const share = (row: SummaryRow) => (row.runs === 0 ? null : row.converged / row.runs);
      const moved = (share(after) ?? 0) < (share(before) ?? 0);
      const change = changeOf(share(before), share(after));
      const pairs = pairedOutcomes(key, baseline, current);
      if (pairs !== null) {
        // McNemar's exact test: of the pairs that disagree, how many lost their convergence.
        const lost = pairs.filter(([b, c]) => b && !c).length;
        const gained = pairs.filter(([b, c]) => !b && c).length;
        const effect = shareChange({ paired: true, lost, gained, n: pairs.length });
        return { point, rule: rule.text, column: "converged share", ...change, test: "McNemar (paired)", effect, p: signTestP(lost, lost + gained), moved, certain: false, sizes: { kind: "paired-counts", pairs: pairs.length } };
      }
      const p = fisherDropP(before.converged, before.runs, after.converged, after.runs);
      const effect = shareChange({ paired: false, before: before.converged, beforeRuns: before.runs, after: after.converged, afterRuns: after.runs });
      return { point, rule: rule.text, column: "converged share", ...change, test: "Fisher's exact test", effect, p, moved, certain: false, sizes: { kind: "two-sample-counts", before: before.runs, after: after.runs } };
    }
  }
}

function checkStatistic(rule: StatisticRule, key: string, point: PointLabel, baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  const column = metricColumn(rule.metric, baseline);
  const values = (results: LoadedResults) => columnValues(results, key, column).map((run) => run.value);
  const before = values(baseline);
  const after = values(current);
  // The same statistics as summary.json's, from the same values in run order.
  const baseValue = statistics(Float64Array.from(before))[rule.statistic];
  const currentValue = statistics(Float64Array.from(after))[rule.statistic];
  const change = changeOf(baseValue, currentValue);
  const limit = baseValue === null ? 0 : rule.threshold.relative ? rule.threshold.value * Math.abs(baseValue) : rule.threshold.value;
  // One side without a value (no converged run) is a move the test cannot confirm: inconclusive.
  const moved = change.change === null ? baseValue !== currentValue : twoSided ? Math.abs(change.change) > limit : change.change > limit;
  if (rule.statistic === "sd") {
    // A spread rule is tested for a change of spread, not of location: each run's distance from its own
    // side's median (Brown and Forsythe's idea), compared by the rank tests as values are below.
    const spreads = (values: readonly number[]) => {
      const middle = values.length === 0 ? 0 : median(values as number[]);
      return values.map((value) => Math.abs(value - middle));
    };
    const [spreadBefore, spreadAfter] = [spreads(before), spreads(after)];
    const effect = twoSampleShift(spreadBefore, spreadAfter);
    const test = "Mann–Whitney U on distances from the median (spread)";
    const sizes = { kind: "two-sample", before: spreadBefore, after: spreadAfter } as const;
    const tested = mannWhitney(spreadBefore, spreadAfter);
    return { point, rule: rule.text, column, ...change, test, effect, p: sided(tested?.p ?? null, tested?.rise ?? null, twoSided), moved, certain: false, sizes };
  }
  if (pairedOutcomes(key, baseline, current) !== null) {
    // The runs converged on both sides, paired by repeat: their differences, by the signed-rank test.
    const differences = pairedValues(key, column, baseline, current).map(([b, c]) => c - b);
    const effect = pairedShift(differences);
    const tested = signedRank(differences);
    return { point, rule: rule.text, column, ...change, test: "Wilcoxon signed-rank (paired)", effect, p: sided(tested?.p ?? 1, tested?.rise ?? null, twoSided), moved, certain: false, sizes: { kind: "paired", differences } };
  }
  const effect = twoSampleShift(before, after);
  const tested = mannWhitney(before, after);
  return { point, rule: rule.text, column, ...change, test: "Mann–Whitney U", effect, p: sided(tested?.p ?? null, tested?.rise ?? null, twoSided), moved, certain: false, sizes: { kind: "two-sample", before, after } };
}

/**
 * A two-sided p-value as the rule asks: as it is with twoSided; otherwise the one-sided p of a rise, half of
 * it where the test's own statistic points up (U or W₊ above its mean under no change; over the sweep, the
 * mean change), one minus half where it points down or is level (the statistics are symmetric under no change).
 * Not Hodges–Lehmann's shift: on integer counts with most pairs tied it is 0 while U sees a rise.
 */
function sided(p: number | null, rise: number | null, twoSided: boolean): number | null {
  if (p === null || twoSided) return p;
  return rise !== null && rise > 0 ? p / 2 : 1 - p / 2;
}

/** The safety rules (`converged`, `errors`) first, where the given rules lack them, then the given ones. */
function withSafetyRules(given: readonly FailRule[]): FailRule[] {
  const has = (kind: FailRule["kind"]) => given.some((rule) => rule.kind === kind);
  const safety = (["converged", "errors"] as const).filter((kind) => !has(kind)).map((kind) => parseFailRule(kind));
  return [...safety, ...given];
}

/**
 * A point's runs as pairs (baseline converged, current converged), by repeat, when they pair: both folders
 * hold the same repeats with the same seeds (the same experiment seed and data, so the same data set, ŵ(0)
 * and orders). Null otherwise: a seed-only change, or repeats added or missing.
 */
function pairedOutcomes(key: string, baseline: LoadedResults, current: LoadedResults): [boolean, boolean][] | null {
  const before = runOutcomes(baseline, key);
  const after = runOutcomes(current, key);
  if (before.length === 0 || before.length !== after.length) return null;
  const byRepeat = new Map(after.map((run) => [run.repeat, run]));
  const pairs: [boolean, boolean][] = [];
  for (const run of before) {
    const other = byRepeat.get(run.repeat);
    if (other === undefined || other.seed !== run.seed) return null;
    pairs.push([run.converged, other.converged]);
  }
  return pairs;
}

/** A paired point's values of `column`, (baseline, current), for the repeats with a value on both sides. */
function pairedValues(key: string, column: string, baseline: LoadedResults, current: LoadedResults): [number, number][] {
  const after = new Map(columnValues(current, key, column).map((run) => [run.repeat, run.value]));
  return columnValues(baseline, key, column).flatMap(({ repeat, value }) => {
    const other = after.get(repeat);
    return other === undefined ? [] : [[value, other] as [number, number]];
  });
}

/**
 * The share of converged runs over the whole sweep, which per-point tests with few repeats each cannot
 * confirm (5 of 5 against 0 of 5 is p = 0.004 at one point: not enough among dozens of checks). Runs of
 * points that differ only in η, ŵ(0), order or bias share their data set at each repeat, so they are not
 * independent: the test's units are those sets of runs (the matched points of one data key, at one
 * repeat), each scored by its share of converged runs, and a one-sided Mann–Whitney U test compares the
 * units of the two folders.
 */
function sweepConvergence(matched: readonly string[], baseline: LoadedResults, current: LoadedResults): Check {
  if (matched.every((key) => pairedOutcomes(key, baseline, current) !== null)) return pairedSweepConvergence(matched, baseline, current);
  // Each unit's share of converged runs, the units in the order they first appear.
  const units = (results: LoadedResults) => {
    const tallies = new UnitTallies();
    for (const key of matched) {
      const own = results.outcomes.get(key);
      if (own === undefined) continue;
      const data = dataKey(results.points.get(key)!);
      for (let k = 0; k < own.repeats.length; k++) tallies.add(data, own.repeats[k]!, own.converged[k]!);
    }
    return tallies.means();
  };
  const before = units(baseline);
  const after = units(current);
  const meanOf = (values: readonly number[]) => (values.length === 0 ? null : mean(values as number[]));
  const [b, c] = [meanOf(before), meanOf(after)];
  const moved = b !== null && c !== null && c < b;
  const twoSided = mannWhitneyP(before, after);
  const p = twoSided === null ? null : moved ? twoSided / 2 : 1;
  const totals = (results: LoadedResults) => matched.reduce((sum, key) => ({ converged: sum.converged + results.points.get(key)!.converged, runs: sum.runs + results.points.get(key)!.runs }), { converged: 0, runs: 0 });
  const [t0, t1] = [totals(baseline), totals(current)];
  const effect = shareChange({ paired: false, before: t0.converged, beforeRuns: t0.runs, after: t1.converged, afterRuns: t1.runs });
  return { point: null, rule: "converged", column: "converged share (whole sweep)", ...changeOf(b, c), test: "Mann–Whitney U over data sets", effect, p, moved, certain: false, sizes: { kind: "two-sample", before, after } };
}

/**
 * sweepConvergence where every point's runs pair: each data set (its units, as above) counts its runs that
 * converged before and after; a one-sided sign test over the data sets whose count changed asks whether
 * drops outnumber rises beyond chance. Robust to the runs of one data set moving together; a point whose
 * 5 runs go from 5 converged to 0 makes 5 drops and no rise: p = 1/32, which fails the gate alone.
 */
function pairedSweepConvergence(matched: readonly string[], baseline: LoadedResults, current: LoadedResults): Check {
  // Each unit's change of converged runs; the pairs by repeat (pairedOutcomes has checked that both sides
  // hold the same repeats).
  const units = new UnitTallies();
  let before = 0;
  let after = 0;
  let lost = 0;
  let gained = 0;
  for (const key of matched) {
    const own = baseline.outcomes.get(key);
    const other = current.outcomes.get(key);
    if (own === undefined || other === undefined) continue;
    const data = dataKey(baseline.points.get(key)!);
    const afterByRepeat = new Map<number, number>();
    for (let k = 0; k < other.repeats.length; k++) afterByRepeat.set(other.repeats[k]!, other.converged[k]!);
    for (let k = 0; k < own.repeats.length; k++) {
      const was = own.converged[k]!;
      const is = afterByRepeat.get(own.repeats[k]!) ?? 0;
      units.add(data, own.repeats[k]!, is - was);
      before += was;
      after += is;
      if (was === 1 && is === 0) lost++;
      if (was === 0 && is === 1) gained++;
    }
  }
  const deltas = units.sums();
  const drops = deltas.filter((delta) => delta < 0).length;
  const rises = deltas.filter((delta) => delta > 0).length;
  const runs = [...matched].reduce((sum, key) => sum + (baseline.outcomes.get(key)?.repeats.length ?? 0), 0);
  const share = (count: number) => (runs === 0 ? null : count / runs);
  return {
    point: null,
    rule: "converged",
    column: "converged share (whole sweep)",
    ...changeOf(share(before), share(after)),
    test: "sign test over data sets (paired)",
    effect: shareChange({ paired: true, lost, gained, n: runs }),
    p: signTestP(drops, drops + rises),
    moved: after < before,
    certain: false,
    sizes: { kind: "paired-counts", pairs: deltas.length },
  };
}

/**
 * A statistic rule over the whole sweep: a shift spread over every point that no point's few runs can
 * confirm alone (a 10 % rise of the updates at 30 repeats a point). Each run's value becomes its
 * percentile among both folders' runs of its point (mid-ranks: scale-free, ties and zeros allowed, and
 * symmetric in the two folders, so that they stay exchangeable when nothing changed). The units are the
 * sets of runs that share a data set (as in sweepConvergence), each scored by its runs' mean percentile;
 * a two-sided Mann–Whitney U test compares the two folders' units. The move is the median over the
 * points of their statistic's change, against the rule's threshold.
 */
function sweepStatistic(rule: StatisticRule, matched: readonly string[], baseline: LoadedResults, current: LoadedResults, checks: readonly Check[], twoSided: boolean): Check {
  if (matched.every((key) => pairedOutcomes(key, baseline, current) !== null)) return pairedSweepStatistic(rule, matched, baseline, current, twoSided);
  const column = metricColumn(rule.metric, baseline);
  const scored = [new UnitTallies(), new UnitTallies()];
  for (const key of matched) {
    const sides = [baseline, current].map((results) => columnValues(results, key, column));
    const pooled = [...sides[0]!, ...sides[1]!].map((run) => run.value).sort((x, y) => x - y);
    const data = dataKey(baseline.points.get(key)!);
    sides.forEach((runs, side) => {
      for (const { value, repeat } of runs) scored[side]!.add(data, repeat, midRankShare(pooled, value));
    });
  }
  const scores = scored.map((tallies) => tallies.means());
  const changes = checks
    .filter((check) => check.rule === rule.text && check.point !== null)
    .map((check) => (rule.threshold.relative ? check.relativeChange : check.change))
    .filter((change): change is number => change !== null);
  const middle = changes.length === 0 ? null : median(changes);
  const moved = middle !== null && (twoSided ? Math.abs(middle) > rule.threshold.value : middle > rule.threshold.value);
  return {
    point: null,
    rule: rule.text,
    column: `${column}, median change over the points${rule.threshold.relative ? " (relative)" : ""}`,
    baseline: 0,
    current: middle,
    change: middle,
    relativeChange: null,
    test: "Mann–Whitney U over data sets",
    effect: null,
    // The units' mean percentiles: higher after than before is a rise.
    p: sided(mannWhitneyP(scores[0]!, scores[1]!), scores[0]!.length === 0 || scores[1]!.length === 0 ? null : mean(scores[1]!) - mean(scores[0]!), twoSided),
    moved,
    certain: false,
    sizes: { kind: "two-sample", before: scores[0]!, after: scores[1]! },
  };
}

/**
 * sweepStatistic where every point's runs pair: each pair of runs that converged on both sides gives its
 * change (relative to the baseline's value for a relative threshold; pairs whose baseline is 0 left out
 * then), each data set the mean change of its pairs, and the signed-rank test asks whether the data sets'
 * changes centre on 0. The move is their mean against the threshold: a mean, not a median of medians, so
 * that integer counts' ties and regressions at a minority of points do not hide it.
 */
function pairedSweepStatistic(rule: StatisticRule, matched: readonly string[], baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  const column = metricColumn(rule.metric, baseline);
  const units = new UnitTallies();
  for (const key of matched) {
    const data = dataKey(baseline.points.get(key)!);
    const afterByRepeat = new Map(columnValues(current, key, column).map((run) => [run.repeat, run.value]));
    for (const { value, repeat } of columnValues(baseline, key, column)) {
      const other = afterByRepeat.get(repeat);
      if (other === undefined || (rule.threshold.relative && value === 0)) continue;
      units.add(data, repeat, rule.threshold.relative ? (other - value) / Math.abs(value) : other - value);
    }
  }
  const changes = units.means();
  const average = changes.length === 0 ? null : mean(changes);
  return {
    point: null,
    rule: rule.text,
    column: `${column}, mean change over the data sets${rule.threshold.relative ? " (relative)" : ""}`,
    baseline: 0,
    current: average,
    change: average,
    relativeChange: null,
    test: "Wilcoxon signed-rank over data sets (paired)",
    effect: pairedShift(changes),
    p: changes.length === 0 ? null : sided(signedRankP(changes) ?? 1, average, twoSided),
    moved: average !== null && (twoSided ? Math.abs(average) > rule.threshold.value : average > rule.threshold.value),
    certain: false,
    sizes: { kind: "paired", differences: changes },
  };
}

/** A point's converged runs' values of `column`, with their repeats, in run order (runs without a value left out). */
function columnValues(results: LoadedResults, key: string, column: string): { value: number; repeat: number }[] {
  const runs = results.runs.get(key);
  if (runs === undefined) return [];
  const values = runs.columns.get(column);
  if (values === undefined) throw new Error(`compare kept no column ${column} (a bug)`);
  return values.flatMap((value, k) => (Number.isNaN(value) ? [] : [{ value, repeat: runs.repeats[k]! }]));
}

/**
 * The units of the sweep-wide tests: the runs that share a data set (their point's data key, their repeat; see
 * sweepConvergence), numbered in the order they first appear, each with the sum and count of the scores added.
 * Keyed by data key, then repeat: no key string a run (a sweep of 10⁶ runs made as many).
 */
class UnitTallies {
  readonly #byData = new Map<string, Map<number, number>>();
  readonly #sums: number[] = [];
  readonly #counts: number[] = [];

  add(data: string, repeat: number, score: number): void {
    let units = this.#byData.get(data);
    if (units === undefined) this.#byData.set(data, (units = new Map()));
    let unit = units.get(repeat);
    if (unit === undefined) {
      unit = this.#sums.length;
      units.set(repeat, unit);
      this.#sums.push(0);
      this.#counts.push(0);
    }
    this.#sums[unit]! += score;
    this.#counts[unit]!++;
  }

  /** Each unit's sum of scores, in order. */
  sums(): number[] {
    return [...this.#sums];
  }

  /** Each unit's mean score, in order. */
  means(): number[] {
    return this.#sums.map((sum, unit) => sum / this.#counts[unit]!);
  }
}

/** The share of `sorted` below `value`, ties counted half: the mid-rank percentile, in (0, 1). */
function midRankShare(sorted: readonly number[], value: number): number {
  let below = 0;
  let high = sorted.length;
  while (below < high) {
    const mid = (below + high) >> 1;
    if (sorted[mid]! < value) below = mid + 1;
    else high = mid;
  }
  let above = below;
  while (above < sorted.length && sorted[above] === value) above++;
  return (below + (above - below) / 2) / sorted.length;
}

function changeOf(baseline: number | null, current: number | null): Pick<RuleOutcome, "baseline" | "current" | "change" | "relativeChange"> {
  const change = baseline === null || current === null ? null : current - baseline;
  const relativeChange = change === null || baseline === 0 ? null : change / Math.abs(baseline!);
  return { baseline, current, change, relativeChange };
}

function label(row: SummaryRow | RunRow): PointLabel {
  return pick(row, POINT_KEYS);
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
