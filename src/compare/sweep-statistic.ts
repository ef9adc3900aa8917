import type { StatisticRule } from "./fail-rule.js";
import { sided, type Check } from "./compare-types.js";
import { dataKey, type LoadedResults } from "./load-results.js";
import { clusterBootstrap, meanWithInterval, permutationTest } from "./resampling.js";
import { columnValues, logChange, logValue, midRankShare, pairedOutcomes, UnitTallies } from "./run-values.js";
import { signedRank } from "./signed-rank.js";

/**
 * A statistic rule over the whole sweep: a shift spread over every point that no point's few runs can confirm
 * alone (a 10 % rise of the updates at 30 repeats a point). Every scale here is symmetric in the two folders, so
 * that when nothing but the random stream changed (a new data version, a redrawn shuffle: the two folders' runs
 * exchangeable) the test holds its level and the estimate centres on no change. A relative threshold reads the
 * log scale, log(value) (a value of 0 left out on either side alike: run-values.ts), and reports back as a
 * relative change; an absolute one, the column's own units. 0.12 averaged per-pair ratios (c − b)/b, which are right-skewed under
 * no change (+1 for a doubling, −0.5 for a halving) and failed 20 of 20 such pairs at 20 repeats.
 *
 * Unpaired: each run's value becomes its percentile among both folders' runs of its point (mid-ranks:
 * scale-free, ties allowed, symmetric), each unit (the runs sharing a data set) its runs' mean percentile, and a
 * permutation test of the units' means compares the folders, its direction the statistic's own. The move is a
 * stratified estimate: per point the difference of the two folders' mean (log) values, averaged over the points,
 * with a cluster bootstrap interval (units resampled within each folder).
 */
export function sweepStatistic(rule: StatisticRule, column: string, matched: readonly string[], baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  if (matched.every((key) => pairedOutcomes(key, baseline, current) !== null)) return pairedSweepStatistic(rule, column, matched, baseline, current, twoSided);
  const relative = rule.threshold.relative;
  const scale = (value: number) => (relative ? logValue(value) : value);
  const scored = [new UnitTallies(), new UnitTallies()];
  // Per folder and unit, the (point, sum, count) of its scaled values, for the stratified estimate and its bootstrap.
  const cells: { point: number; sum: number; count: number }[][][] = [[], []];
  matched.forEach((key, point) => {
    const sides = [baseline, current].map((results) => columnValues(results, key, column));
    const pooled = [...sides[0]!, ...sides[1]!].map((run) => run.value).sort((x, y) => x - y);
    const data = dataKey(baseline.points.get(key)!);
    sides.forEach((runs, side) => {
      for (const { value, repeat } of runs) {
        const unit = scored[side]!.add(data, repeat, midRankShare(pooled, value));
        const scaled = scale(value);
        if (scaled === null) continue;
        const own = (cells[side]![unit] ??= []);
        const cell = own.find((entry) => entry.point === point);
        if (cell === undefined) own.push({ point, sum: scaled, count: 1 });
        else {
          cell.sum += scaled;
          cell.count++;
        }
      }
    });
  });
  const scores = scored.map((tallies) => tallies.means());
  const points = matched.length;
  const stratified = (drawn: readonly (Int32Array | null)[]) => {
    const totals = [new Float64Array(points), new Float64Array(points)];
    const counts = [new Float64Array(points), new Float64Array(points)];
    for (const side of [0, 1]) {
      const units = cells[side]!;
      const picks = drawn[side] ?? Int32Array.from({ length: scores[side]!.length }, (_, k) => k);
      for (const unit of picks) {
        for (const cell of units[unit] ?? []) {
          totals[side]![cell.point]! += cell.sum;
          counts[side]![cell.point]! += cell.count;
        }
      }
    }
    let [sum, used] = [0, 0];
    for (let p = 0; p < points; p++) {
      if (counts[0]![p]! === 0 || counts[1]![p]! === 0) continue;
      sum += totals[1]![p]! / counts[1]![p]! - totals[0]![p]! / counts[0]![p]!;
      used++;
    }
    return used === 0 ? null : sum / used;
  };
  const estimate = stratified([null, null]);
  const interval = clusterBootstrap([scores[0]!.length, scores[1]!.length], (drawn) => stratified(drawn));
  const back = (value: number) => (relative ? Math.expm1(value) : value);
  const change = estimate === null ? null : back(estimate);
  const tested = permutationTest(scores[0]!, scores[1]!);
  return {
    point: null,
    rule: rule.text,
    column: `${column}, ${relative ? "geometric mean ratio − 1" : "mean change"} over the points`,
    unit: relative ? "relative change" : column,
    detectableUnit: "mean percentile of a data set's runs",
    baseline: null,
    current: null,
    change: relative ? null : change,
    relativeChange: relative ? change : null,
    test: "permutation test over data sets (percentiles)",
    effect:
      estimate === null
        ? null
        : {
            estimate: back(estimate),
            low: back(interval?.low ?? estimate),
            high: back(interval?.high ?? estimate),
            level: 0.95,
            method: `${relative ? "ratio of geometric means − 1" : "difference of means"}, averaged over the points; cluster bootstrap over the data sets`,
          },
    p: tested === null ? null : sided(tested.p, tested.rise, twoSided, tested.pRise),
    moved: change !== null && exceedsThreshold(change, rule, twoSided),
    certain: false,
    sizes: { kind: "two-sample", before: scores[0]!, after: scores[1]! },
  };
}

/**
 * sweepStatistic where every point's runs pair: each pair of runs that converged on both sides gives its change
 * (on the log scale for a relative threshold: log of the ratio, symmetric; a plain difference for an absolute
 * one), each data set the mean change of its pairs, and the signed-rank test asks whether the data sets' changes
 * centre on 0 (its direction the statistic's own). The move is the data sets' mean change, reported back as a
 * relative change (a geometric mean ratio − 1) or in the column's units, with a cluster bootstrap interval.
 */
function pairedSweepStatistic(rule: StatisticRule, column: string, matched: readonly string[], baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  const relative = rule.threshold.relative;
  const units = new UnitTallies();
  for (const key of matched) {
    const data = dataKey(baseline.points.get(key)!);
    const afterByRepeat = new Map(columnValues(current, key, column).map((run) => [run.repeat, run.value]));
    for (const { value, repeat } of columnValues(baseline, key, column)) {
      const other = afterByRepeat.get(repeat);
      if (other === undefined) continue;
      const change = relative ? logChange(value, other) : other - value;
      if (change !== null) units.add(data, repeat, change);
    }
  }
  const changes = units.means();
  // The data sets' changes are independent (the runs of one move together, so they are one score): their
  // mean with Student's t interval (a percentile bootstrap of it covered 92.5 % in the calibration).
  const interval = meanWithInterval(changes);
  const average = interval?.mean ?? null;
  const back = (value: number) => (relative ? Math.expm1(value) : value);
  const change = average === null ? null : back(average);
  const tested = signedRank(changes);
  return {
    point: null,
    rule: rule.text,
    column: `${column}, ${relative ? "geometric mean ratio − 1" : "mean change"} over the data sets`,
    unit: relative ? "relative change" : column,
    detectableUnit: relative ? "a data set's mean log ratio" : column,
    baseline: null,
    current: null,
    change: relative ? null : change,
    relativeChange: relative ? change : null,
    test: "Wilcoxon signed-rank over data sets (paired)",
    effect:
      average === null
        ? null
        : {
            estimate: back(average),
            low: back(interval?.low ?? average),
            high: back(interval?.high ?? average),
            level: 0.95,
            method: `${relative ? "geometric mean ratio − 1 (paired)" : "mean difference (paired)"} over the data sets, Student's t interval`,
          },
    p: changes.length === 0 ? null : sided(tested?.p ?? 1, tested?.rise ?? null, twoSided),
    moved: change !== null && exceedsThreshold(change, rule, twoSided),
    certain: false,
    sizes: { kind: "paired", differences: changes },
  };
}

/**
 * Whether a sweep's change passes the rule's threshold: a rise beyond it, or with twoSided a fall beyond it too
 * (for a relative threshold t, the symmetric fall: a ratio below 1/(1 + t)).
 */
function exceedsThreshold(change: number, rule: StatisticRule, twoSided: boolean): boolean {
  const t = rule.threshold.value;
  if (change > t) return true;
  if (!twoSided) return false;
  return rule.threshold.relative ? change < 1 / (1 + t) - 1 : change < -t;
}
