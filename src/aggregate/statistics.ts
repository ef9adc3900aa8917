import { mean, max, min, quantileSorted, quickselect, sampleStandardDeviation } from "simple-statistics";
import type { Median, Statistics } from "../run/summary-types.js";

/** The quantiles of Statistics, ascending (placeQuantiles wants them so). */
const QUANTILES = [0.1, 0.25, 0.5, 0.75, 0.9] as const;

/**
 * The statistics of `values`, in the order they came (means are summed in that order). The values are
 * taken, not borrowed: a Float64Array is reordered in place afterwards for the quantiles (a plain
 * array is copied first), so a point with 10^6 runs needs no sorted copy of each column.
 */
export function statistics(values: Float64Array | readonly number[]): Statistics {
  if (values.length === 0) return { mean: null, sd: null, min: null, p10: null, p25: null, median: null, p75: null, p90: null, max: null };
  // In run order first (the mean is summed in that order), then reordered in place for the quantiles.
  const inOrder = values as number[];
  const [average, sd, least, most] = [mean(inOrder), values.length > 1 ? sampleStandardDeviation(inOrder) : null, min(inOrder), max(inOrder)];
  const placed = placeQuantiles(values, QUANTILES);
  const [p10, p25, median, p75, p90] = QUANTILES.map((p) => quantileSorted(placed, p)) as [number, number, number, number, number];
  return { mean: average, sd, min: least, p10, p25, median, p75, p90, max: most };
}

/** The median of `values`, taken as statistics() takes them (a Float64Array is reordered in place). */
export function medianOf(values: Float64Array | readonly number[]): Median {
  return { median: values.length === 0 ? null : quantileSorted(placeQuantiles(values, [0.5]), 0.5) };
}

/**
 * `values` reordered so that quantileSorted reads the right numbers for each of `probabilities`
 * (ascending): the order statistics either side of its index (n − 1)·p (R type 7) sit where a sort would
 * put them, found by quickselect (Floyd–Rivest, linear time) instead of sorting every value. The result
 * is the same number as after a sort: the same two order statistics, interpolated by the same function.
 * (Quickselect does not order −0 and +0 among themselves as the typed sort does; both print as 0.)
 */
function placeQuantiles(values: Float64Array | readonly number[], probabilities: readonly number[]): number[] {
  const array = (values instanceof Float64Array ? values : Float64Array.from(values)) as unknown as number[];
  const last = array.length - 1;
  const ranks = [...new Set(probabilities.flatMap((p) => [Math.floor(last * p), Math.ceil(last * p)]))];
  placeRanks(array, ranks, 0, ranks.length - 1, 0, last);
  return array;
}

/**
 * Puts the order statistics of ranks[from..to] (ascending) in their places within array[left..right],
 * which holds exactly the order statistics left..right of the whole column: the middle rank first, over
 * the whole range, then each side's ranks within that side only (about 3n steps for the ten ranks of
 * statistics(), against about 6n when each quickselect ran from the last rank placed to the end). A rank at
 * an end of its range is that range's least or greatest value: one scan and a swap.
 */
function placeRanks(array: number[], ranks: readonly number[], from: number, to: number, left: number, right: number): void {
  if (from > to) return;
  const middle = (from + to) >>> 1;
  const k = ranks[middle]!;
  if (k === left || k === right) {
    let at = k;
    for (let i = left; i <= right; i++) if (k === left ? array[i]! < array[at]! : array[i]! > array[at]!) at = i;
    const value = array[at]!;
    array[at] = array[k]!;
    array[k] = value;
  } else {
    // left < k < right, so right ≥ 1: simple-statistics' quickselect reads a right of 0 as the array's end.
    quickselect(array, k, left, right);
  }
  placeRanks(array, ranks, from, middle - 1, left, k - 1);
  placeRanks(array, ranks, middle + 1, to, k + 1, right);
}
