import { runOutcomes, type LoadedResults } from "./load-results.js";

/**
 * A point's runs as pairs (baseline converged, current converged), by repeat, when they pair: both folders
 * hold the same repeats with the same seeds (the same experiment seed and data, so the same data set, ŵ(0)
 * and orders). Null otherwise: a seed-only change, or repeats added or missing.
 */
export function pairedOutcomes(key: string, baseline: LoadedResults, current: LoadedResults): [boolean, boolean][] | null {
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
export function pairedValues(key: string, column: string, baseline: LoadedResults, current: LoadedResults): [number, number][] {
  const after = new Map(columnValues(current, key, column).map((run) => [run.repeat, run.value]));
  return columnValues(baseline, key, column).flatMap(({ repeat, value }) => {
    const other = after.get(repeat);
    return other === undefined ? [] : [[value, other] as [number, number]];
  });
}

/** A point's converged runs' values of `column`, with their repeats, in run order (runs without a value left out). */
export function columnValues(results: LoadedResults, key: string, column: string): { value: number; repeat: number }[] {
  const runs = results.runs.get(key);
  if (runs === undefined) return [];
  const values = runs.columns.get(column);
  if (values === undefined) throw new Error(`compare kept no column ${column} (a bug)`);
  return values.flatMap((value, k) => (Number.isNaN(value) ? [] : [{ value, repeat: runs.repeats[k]! }]));
}

/**
 * log(c/b), the symmetric scale of a relative change: swapping b and c negates it, so that two folders whose
 * runs are exchangeable (only the random stream changed) centre on 0. Both 0: no change (0); one of them 0 (a run
 * whose ŵ(0) already separated: 0 updates) or below: undefined (null), and the pair is left out, on either side alike.
 */
export function logChange(b: number, c: number): number | null {
  if (b <= 0 || c <= 0) return b === c ? 0 : null;
  return Math.log(c / b);
}

/** log(value), or null for a value ≤ 0 (left out of a mean on the log scale, on either side alike). */
export function logValue(value: number): number | null {
  return value > 0 ? Math.log(value) : null;
}

/**
 * The units of the sweep-wide tests: the runs that share a data set (their point's data key, their repeat; see
 * sweepConvergence), numbered in the order they first appear, each with the sum and count of the scores added.
 * Keyed by data key, then repeat: no key string a run (a sweep of 10⁶ runs made as many).
 */
export class UnitTallies {
  readonly #byData = new Map<string, Map<number, number>>();
  readonly #sums: number[] = [];
  readonly #counts: number[] = [];

  /** Adds a score to the unit of (data, repeat); returns the unit's number. */
  add(data: string, repeat: number, score: number): number {
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
    return unit;
  }

  /** Each unit's sum of scores, in order. */
  sums(): number[] {
    return [...this.#sums];
  }

  /** Each unit's count of scores, in order. */
  counts(): number[] {
    return [...this.#counts];
  }

  /** Each unit's mean score, in order. */
  means(): number[] {
    return this.#sums.map((sum, unit) => sum / this.#counts[unit]!);
  }
}

/** The share of `sorted` below `value`, ties counted half: the mid-rank percentile, in (0, 1). */
export function midRankShare(sorted: readonly number[], value: number): number {
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
