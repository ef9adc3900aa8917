import type { EVERY_RUN_COLUMNS } from "./summary-columns.js";
import type { BoundColumn, RatioColumn } from "./run-types.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";

/** Statistics of one quantity over the converged runs of a grid point; null when there are none. */
export interface Statistics {
  readonly mean: number | null;
  /** Sample standard deviation (n − 1); null for fewer than two values. */
  readonly sd: number | null;
  readonly min: number | null;
  /**
   * p10, p25, median, p75, p90: the 0.1, 0.25, 0.5, 0.75 and 0.9 quantiles by linear interpolation (R type 7,
   * numpy's default; simple-statistics' `quantileSorted`). p25 and p75 bound the interquartile band the
   * report draws; p10 and p90 its whiskers.
   */
  readonly p10: number | null;
  readonly p25: number | null;
  readonly median: number | null;
  readonly p75: number | null;
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
  readonly tightestHuBound: Median;
  readonly tightestOptimisedBound: Median;
  readonly bestBound: Median;
  readonly tightestHuRatio: Statistics;
  readonly tightestOptimisedRatio: Statistics;
  readonly bestRatio: Statistics;
} & { readonly [K in (typeof EVERY_RUN_COLUMNS)[number]]: Statistics } & { readonly [K in RatioColumn]: Statistics } & { readonly [K in BoundColumn]: Median };

/**
 * The median a summary row holds for `column`, any column its layout has (the tool's own, a plug-in bound's,
 * the worst order's: table-layout.ts, which SummaryRow's type does not list); null where it has none.
 */
export function summaryMedian(row: SummaryRow, column: string): number | null {
  const entry = (row as unknown as Record<string, { readonly median?: number | null } | undefined>)[column];
  return typeof entry?.median === "number" ? entry.median : null;
}
