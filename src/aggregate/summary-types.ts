import type { BoundColumn, PointParameters, RatioColumn } from "../run/run-types.js";

/** Statistics of one quantity over the converged runs of a grid point; null when there are none. */
export interface Statistics {
  readonly mean: number | null;
  /** Sample standard deviation (n − 1); null for fewer than two values. */
  readonly sd: number | null;
  readonly min: number | null;
  readonly median: number | null;
  /** The 0.9 quantile by linear interpolation (R type 7, numpy's default; simple-statistics' `quantileSorted`). */
  readonly p90: number | null;
  readonly max: number | null;
}

export interface Median {
  readonly median: number | null;
}

/** One row of summary.json / summary.csv: a grid point. */
export type SummaryRow = PointParameters & {
  readonly grid: number;
  readonly point: number;
  /** Runs of the point (its repeats). */
  readonly runs: number;
  readonly converged: number;
  readonly errors: number;
  readonly violations: number;
  /** Runs whose max-margin separator is not certified optimal (inexact, infeasible, failed, too large). */
  readonly notOptimal: number;
  readonly updates: Statistics;
  readonly learnerRadius: Median;
  readonly plantedMargin: Median;
  readonly optimalMargin: Median;
  readonly bestBound: Median;
  readonly bestRatio: Statistics;
} & { readonly [K in RatioColumn]: Statistics } & { readonly [K in BoundColumn]: Median };
