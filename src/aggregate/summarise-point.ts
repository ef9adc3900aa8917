import { mean, max, medianSorted, min, quantileSorted, sampleStandardDeviation } from "simple-statistics";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../run/execute-run.js";
import type { BoundColumn, RatioColumn, RunRow } from "../run/run-types.js";
import type { Median, Statistics, SummaryRow } from "./summary-types.js";

/**
 * The summary of one grid point from its runs (all of the same point, in run order). Statistics are
 * taken over the converged runs, whose updates are the true count; `converged` and `errors` say how
 * many that is.
 */
export function summarisePoint(rows: readonly RunRow[]): SummaryRow {
  const first = rows[0];
  if (first === undefined) throw new RangeError("a grid point needs at least one run");
  const converged = rows.filter((row) => row.status === "ok" && row.converged === true);
  const values = (pick: (row: RunRow) => number | null): number[] =>
    converged.map(pick).filter((value): value is number => value !== null);

  const ratios = {} as Record<RatioColumn, Statistics>;
  const bounds = {} as Record<BoundColumn, Median>;
  for (const column of RATIO_COLUMNS) ratios[column] = statistics(values((row) => row[column]));
  for (const column of BOUND_COLUMNS) bounds[column] = medianOf(values((row) => row[column]));
  const { generator, n, d, margin, radius, offset, c, bias, eta, init, order, grid, point } = first;
  return {
    grid,
    point,
    generator,
    n,
    d,
    margin,
    radius,
    offset,
    c,
    bias,
    eta,
    init,
    order,
    runs: rows.length,
    converged: converged.length,
    errors: rows.filter((row) => row.status === "error").length,
    violations: rows.reduce((sum, row) => sum + (row.violations ?? 0), 0),
    notOptimal: rows.filter((row) => row.optimalStatus !== null && row.optimalStatus !== "optimal" && row.optimalStatus !== "off").length,
    updates: statistics(values((row) => row.updates)),
    learnerRadius: medianOf(values((row) => row.learnerRadius)),
    plantedMargin: medianOf(values((row) => row.plantedMargin)),
    optimalMargin: medianOf(values((row) => row.optimalMargin)),
    ...bounds,
    bestBound: medianOf(values((row) => row.bestBound)),
    ...ratios,
    bestRatio: statistics(values((row) => row.bestRatio)),
  };
}

export function statistics(values: readonly number[]): Statistics {
  if (values.length === 0) return { mean: null, sd: null, min: null, median: null, p90: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: mean(values as number[]),
    sd: values.length > 1 ? sampleStandardDeviation(values as number[]) : null,
    min: min(values as number[]),
    median: medianSorted(sorted),
    p90: quantileSorted(sorted, 0.9),
    max: max(values as number[]),
  };
}

function medianOf(values: readonly number[]): Median {
  return { median: values.length === 0 ? null : medianSorted([...values].sort((a, b) => a - b)) };
}
