import { median } from "simple-statistics";
import { statistics } from "../aggregate/statistics.js";
import type { SummaryRow } from "../run/summary-types.js";
import { type RunRow } from "../run/run-types.js";
import { pick, POINT_KEYS } from "../vocabulary/point-parameters.js";
import { changeOf, sided, type Check, type PointLabel } from "./compare-types.js";
import { pairedShift, shareChange, twoSampleShift } from "./effect-size.js";
import type { FailRule, StatisticRule } from "./fail-rule.js";
import { fisherDropP } from "./fisher-exact.js";
import type { LoadedResults } from "./load-results.js";
import { mannWhitney } from "./mann-whitney.js";
import { columnValues, pairedOutcomes, pairedValues } from "./run-values.js";
import { signedRank } from "./signed-rank.js";
import { signTestP } from "./sign-test.js";

export function label(row: SummaryRow | RunRow): PointLabel {
  return pick(row, POINT_KEYS);
}

/** One rule at one matched grid point: its test, effect and whether the change it watches happened. */
export function checkPoint(rule: FailRule, column: string | null, key: string, before: SummaryRow, after: SummaryRow, baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
  const point = label(before);
  switch (rule.kind) {
    case "statistic":
      return checkStatistic(rule, column!, key, point, baseline, current, twoSided);
    case "errors": {
      // Errors are faults of the tool or the machine, never noise: any new one fails, without a test.
      const moved = after.errors > before.errors;
      return { point, rule: rule.text, column: "errors", unit: "errors", detectableUnit: null, ...changeOf(before.errors, after.errors), test: null, effect: null, p: null, moved, certain: moved, sizes: null };
    }
    case "converged": {
      const share = (row: SummaryRow) => (row.runs === 0 ? null : row.converged / row.runs);
      const moved = (share(after) ?? 0) < (share(before) ?? 0);
      const change = changeOf(share(before), share(after));
      const pairs = pairedOutcomes(key, baseline, current);
      const common = { point, rule: rule.text, column: "converged share", unit: "share of runs", detectableUnit: "share of runs", ...change, moved, certain: false } as const;
      if (pairs !== null) {
        // McNemar's exact test: of the pairs that disagree, how many lost their convergence.
        const count = (b: boolean, c: boolean) => pairs.filter(([x, y]) => x === b && y === c).length;
        const [both, lost, gained, neither] = [count(true, true), count(true, false), count(false, true), count(false, false)];
        const effect = shareChange({ paired: true, both, lost, gained, neither });
        return { ...common, test: "McNemar (paired)", effect, p: signTestP(lost, lost + gained), sizes: { kind: "paired-counts", pairs: pairs.length } };
      }
      const p = fisherDropP(before.converged, before.runs, after.converged, after.runs);
      const effect = shareChange({ paired: false, before: before.converged, beforeRuns: before.runs, after: after.converged, afterRuns: after.runs });
      return { ...common, test: "Fisher's exact test", effect, p, sizes: { kind: "two-sample-counts", before: before.runs, after: after.runs } };
    }
  }
}

function checkStatistic(rule: StatisticRule, column: string, key: string, point: PointLabel, baseline: LoadedResults, current: LoadedResults, twoSided: boolean): Check {
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
  const common = { point, rule: rule.text, column, unit: column, detectableUnit: column, ...change, moved, certain: false } as const;
  if (rule.statistic === "sd") {
    // A spread rule is tested for a change of spread, not of location: each run's distance from its own
    // side's median (Brown and Forsythe's idea), compared by the rank tests as values are below.
    const spreads = (values: readonly number[]) => {
      const middle = values.length === 0 ? 0 : median(values as number[]);
      return values.map((value) => Math.abs(value - middle));
    };
    const [spreadBefore, spreadAfter] = [spreads(before), spreads(after)];
    const tested = mannWhitney(spreadBefore, spreadAfter);
    return {
      ...common,
      detectableUnit: `${column} (distance from the median)`,
      test: "Mann–Whitney U on distances from the median (spread)",
      effect: twoSampleShift(spreadBefore, spreadAfter),
      p: sided(tested?.p ?? null, tested?.rise ?? null, twoSided, tested?.pRise ?? null),
      sizes: { kind: "two-sample", before: spreadBefore, after: spreadAfter },
    };
  }
  if (pairedOutcomes(key, baseline, current) !== null) {
    // The runs converged on both sides, paired by repeat: their differences, by the signed-rank test.
    const differences = pairedValues(key, column, baseline, current).map(([b, c]) => c - b);
    const tested = signedRank(differences);
    return { ...common, test: "Wilcoxon signed-rank (paired)", effect: pairedShift(differences), p: sided(tested?.p ?? 1, tested?.rise ?? null, twoSided), sizes: { kind: "paired", differences } };
  }
  const tested = mannWhitney(before, after);
  return { ...common, test: "Mann–Whitney U", effect: twoSampleShift(before, after), p: sided(tested?.p ?? null, tested?.rise ?? null, twoSided, tested?.pRise ?? null), sizes: { kind: "two-sample", before, after } };
}
