import { mean, max, medianSorted, min, quantileSorted, sampleStandardDeviation } from "simple-statistics";
import type { Median, Statistics } from "./summary-types.js";

/**
 * The statistics of `values`, in the order they came (means are summed in that order). The values are
 * taken, not borrowed: a Float64Array is sorted in place afterwards for the median and p90, so a point
 * with 10^6 runs needs no sorted copy of each column (a plain array is copied first). The typed sort
 * orders −0 before +0 where `(a, b) => a − b` keeps them as they came; both print as 0, and an
 * interpolated quantile or median between them is ±0 alike.
 */
export function statistics(values: Float64Array | readonly number[]): Statistics {
  if (values.length === 0) return { mean: null, sd: null, min: null, median: null, p90: null, max: null };
  // In run order first (the mean is summed in that order), then sorted in place for the median and p90.
  const inOrder = values as number[];
  const [average, sd, least, most] = [mean(inOrder), values.length > 1 ? sampleStandardDeviation(inOrder) : null, min(inOrder), max(inOrder)];
  const sorted = sortInPlace(values);
  return { mean: average, sd, min: least, median: medianSorted(sorted), p90: quantileSorted(sorted, 0.9), max: most };
}

/** The median of `values`, taken as statistics() takes them (a Float64Array is sorted in place). */
export function medianOf(values: Float64Array | readonly number[]): Median {
  return { median: values.length === 0 ? null : medianSorted(sortInPlace(values)) };
}

/** A typed array's numeric sort: no comparator call per comparison. */
function sortInPlace(values: Float64Array | readonly number[]): number[] {
  const typed = values instanceof Float64Array ? values : Float64Array.from(values);
  return typed.sort() as unknown as number[];
}
