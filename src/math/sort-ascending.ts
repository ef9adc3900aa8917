/**
 * Sorts values[0..count) ascending, in place: the same result as `values.subarray(0, count).sort()` for
 * finite values (a sorted sequence of numbers is unique, whatever the algorithm; ±0 and NaN go to the
 * built-in sort, see below), in about a third of its time for the Freund–Schapire search's margins
 * (n 100: 1.5 against 3.5 µs; n 1 000: 16 against 51 µs; scratch loop over 2 000 random arrays here).
 *
 * A bucket sort: each value goes to bucket ⌊(v − lo)·count/(hi − lo)⌋ (clamped to the last), a map that
 * never decreases as v grows (subtraction, multiplication by a positive number and ⌊·⌋ each round
 * monotonically), so the buckets are in order of their values and only each bucket needs sorting: by
 * insertion where it is small, as is usual for data spread over a range, and by the built-in sort where it
 * is not (values clustered so that one bucket takes many), so the worst case stays O(n log n). Where
 * lo, hi or the scale is not finite, where all are equal, or where a zero or NaN is among them, the built-in
 * sort does it all (it orders −0 before +0 and puts NaN last, which this map would not).
 */
export function sortAscending(values: Float64Array, count: number): void {
  if (count < 2) return;
  let lo = Infinity;
  let hi = -Infinity;
  let plain = true;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    if (v < lo) lo = v;
    if (v > hi) hi = v;
    if (v === 0 || v !== v) plain = false;
  }
  const scale = count / (hi - lo);
  if (!plain || !(hi > lo) || !Number.isFinite(hi - lo) || !Number.isFinite(scale)) {
    values.subarray(0, count).sort();
    return;
  }
  // ends[b + 1] counts bucket b, then (prefix sums) ends[b] is where bucket b starts in `sorted`.
  const ends = ENDS.length >= count + 1 ? ENDS : (ENDS = new Int32Array(2 * count + 2));
  ends.fill(0, 0, count + 1);
  const sorted = SORTED.length >= count ? SORTED : (SORTED = new Float64Array(2 * count));
  const last = count - 1;
  for (let i = 0; i < count; i++) ends[Math.min(last, Math.floor((values[i]! - lo) * scale)) + 1]!++;
  for (let b = 0; b < last; b++) ends[b + 1]! += ends[b]!;
  for (let i = 0; i < count; i++) {
    const v = values[i]!;
    sorted[ends[Math.min(last, Math.floor((v - lo) * scale))]!++] = v;
  }
  // Now ends[b] is where bucket b ends (and b + 1 starts).
  let start = 0;
  for (let b = 0; b < count; b++) {
    const end = ends[b]!;
    if (end - start > INSERTION_MOST) sorted.subarray(start, end).sort();
    else {
      for (let i = start + 1; i < end; i++) {
        const v = sorted[i]!;
        let j = i - 1;
        while (j >= start && sorted[j]! > v) {
          sorted[j + 1] = sorted[j]!;
          j--;
        }
        sorted[j + 1] = v;
      }
    }
    start = end;
  }
  values.set(sorted.subarray(0, count));
}

/** The largest bucket sorted by insertion (~k²/4 moves); larger ones go to the built-in sort. */
const INSERTION_MOST = 24;

/** This thread's scratch of sortAscending: the buckets' ends and the values in bucket order. */
let ENDS = new Int32Array(258);
let SORTED = new Float64Array(256);
