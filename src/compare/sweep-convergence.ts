import { changeOf, type Check } from "./compare-types.js";
import { dataKey, type LoadedResults } from "./load-results.js";
import { clusterBootstrap, permutationTest } from "./resampling.js";
import { pairedOutcomes, UnitTallies } from "./run-values.js";
import { signTestP } from "./sign-test.js";

/**
 * The share of converged runs over the whole sweep, which per-point tests with few repeats each cannot
 * confirm (5 of 5 against 0 of 5 is p = 0.004 at one point: not enough among dozens of checks). Runs of
 * points that differ only in η, ŵ(0), order or bias share their data set at each repeat, so they are not
 * independent: the test's units are those sets of runs (the matched points of one data key, at one
 * repeat), each scored by its share of converged runs, and a one-sided permutation test of the difference of
 * the units' mean shares compares the two folders (its direction the statistic's own). The effect is the change
 * of the share of runs with a cluster bootstrap interval: the units resampled within each folder.
 */
export function sweepConvergence(matched: readonly string[], baseline: LoadedResults, current: LoadedResults): Check {
  if (matched.every((key) => pairedOutcomes(key, baseline, current) !== null)) return pairedSweepConvergence(matched, baseline, current);
  // Each unit's converged runs and runs, the units in the order they first appear.
  const units = (results: LoadedResults) => {
    const converged = new UnitTallies();
    for (const key of matched) {
      const own = results.outcomes.get(key);
      if (own === undefined) continue;
      const data = dataKey(results.points.get(key)!);
      for (let k = 0; k < own.repeats.length; k++) converged.add(data, own.repeats[k]!, own.converged[k]!);
    }
    return { sums: converged.sums(), counts: converged.counts(), shares: converged.means() };
  };
  const before = units(baseline);
  const after = units(current);
  const share = (side: typeof before, drawn?: Int32Array) => {
    let [c, r] = [0, 0];
    const count = drawn?.length ?? side.sums.length;
    for (let k = 0; k < count; k++) {
      const unit = drawn === undefined ? k : drawn[k]!;
      c += side.sums[unit]!;
      r += side.counts[unit]!;
    }
    return r === 0 ? null : c / r;
  };
  const [b, c] = [share(before), share(after)];
  const moved = b !== null && c !== null && c < b;
  const tested = permutationTest(before.shares, after.shares);
  const interval = clusterBootstrap([before.sums.length, after.sums.length], ([x, y]) => {
    const [p0, p1] = [share(before, x), share(after, y)];
    return p0 === null || p1 === null ? null : p1 - p0;
  });
  const effect = b === null || c === null ? null : { estimate: c - b, low: interval?.low ?? c - b, high: interval?.high ?? c - b, level: 0.95, method: "difference of shares, cluster bootstrap over the data sets" };
  return {
    point: null,
    rule: "converged",
    column: "converged share (whole sweep)",
    unit: "share of runs",
    detectableUnit: "mean share of a data set's runs",
    ...changeOf(b, c),
    test: "permutation test over data sets",
    effect,
    // A drop is what fails: the p of the statistic falling.
    p: tested === null ? null : tested.pFall,
    moved,
    certain: false,
    sizes: { kind: "two-sample", before: before.shares, after: after.shares },
  };
}

/**
 * sweepConvergence where every point's runs pair: each data set (its units, as above) counts its runs that
 * converged before and after; a one-sided sign test over the data sets whose count changed asks whether
 * drops outnumber rises beyond chance. Robust to the runs of one data set moving together; a point whose
 * 5 runs go from 5 converged to 0 makes 5 drops and no rise: p = 1/32, which fails the gate alone. The effect,
 * the change of the share of runs, takes a cluster bootstrap interval over the data sets.
 */
function pairedSweepConvergence(matched: readonly string[], baseline: LoadedResults, current: LoadedResults): Check {
  // Each unit's change of converged runs, and its runs; the pairs by repeat (pairedOutcomes has checked that both sides hold the same repeats).
  const units = new UnitTallies();
  let before = 0;
  let after = 0;
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
    }
  }
  const deltas = units.sums();
  const runs = units.counts();
  const drops = deltas.filter((delta) => delta < 0).length;
  const rises = deltas.filter((delta) => delta > 0).length;
  const total = runs.reduce((sum, count) => sum + count, 0);
  const share = (count: number) => (total === 0 ? null : count / total);
  const interval = clusterBootstrap([deltas.length], ([drawn]) => {
    let [change, count] = [0, 0];
    for (const unit of drawn!) {
      change += deltas[unit]!;
      count += runs[unit]!;
    }
    return count === 0 ? null : change / count;
  });
  const estimate = total === 0 ? 0 : (after - before) / total;
  return {
    point: null,
    rule: "converged",
    column: "converged share (whole sweep)",
    unit: "share of runs",
    detectableUnit: "share of data sets",
    ...changeOf(share(before), share(after)),
    test: "sign test over data sets (paired)",
    effect: total === 0 ? null : { estimate, low: interval?.low ?? estimate, high: interval?.high ?? estimate, level: 0.95, method: "difference of shares (paired), cluster bootstrap over the data sets" },
    p: signTestP(drops, drops + rises),
    moved: after < before,
    certain: false,
    sizes: { kind: "paired-counts", pairs: deltas.length },
  };
}
