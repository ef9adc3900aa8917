import { upperNormalTail } from "./signed-rank.js";

/**
 * Resampling over the sweep's units (the data sets: the runs of one data key at one repeat move together, so
 * they, not the runs, are the independent draws): a cluster bootstrap for intervals and a permutation test for
 * two folders whose runs do not pair. Seeded with a fixed seed: the same folders give the same report, byte
 * for byte.
 */

/** Bootstrap resamples an interval takes. */
export const BOOTSTRAP_RESAMPLES = 2000;
/** Permutations a two-sample test takes, and the units past which it uses the normal approximation instead. */
export const PERMUTATIONS = 4000;
export const PERMUTATION_UNIT_LIMIT = 4000;

/** A small, fast generator (mulberry32), seeded: uniforms in [0, 1). Statistical quality ample for resampling. */
export function seededUniform(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SEED = 0x5eed_c0de;

/**
 * The percentile interval at `level` of a statistic over clusters resampled with replacement: `groups` lists
 * each group's number of clusters (the two folders' units are resampled each within its own folder; paired
 * units are one group), `statistic` is given each group's drawn cluster indices. Null where a group is empty.
 */
export function clusterBootstrap(groups: readonly number[], statistic: (drawn: readonly Int32Array[]) => number | null, level = 0.95): { low: number; high: number } | null {
  if (groups.some((size) => size === 0)) return null;
  const random = seededUniform(SEED);
  const drawn = groups.map((size) => new Int32Array(size));
  const values: number[] = [];
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    groups.forEach((size, g) => {
      const into = drawn[g]!;
      for (let k = 0; k < size; k++) into[k] = Math.floor(random() * size);
    });
    const value = statistic(drawn);
    if (value !== null && Number.isFinite(value)) values.push(value);
  }
  if (values.length === 0) return null;
  values.sort((a, b) => a - b);
  const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
  return { low: at((1 - level) / 2), high: at(1 - (1 - level) / 2) };
}

/**
 * A permutation test of two samples of unit scores by the difference of their means (after − before): the
 * units' labels shuffled PERMUTATIONS times; the p of a rise is (1 + #{shuffled ≥ observed})/(1 + PERMUTATIONS),
 * two-sided with |·| (valid at its level whatever the scores' law and ties, which a normal approximation on
 * shares of converged runs, mostly 1, was not). Past PERMUTATION_UNIT_LIMIT units the normal approximation of
 * the same statistic under relabelling, which is accurate there. `rise` is the statistic itself.
 */
export function permutationTest(before: readonly number[], after: readonly number[]): { readonly p: number; readonly pRise: number; readonly pFall: number; readonly rise: number } | null {
  const [n1, n2] = [before.length, after.length];
  if (n1 === 0 || n2 === 0) return null;
  const pooled = Float64Array.from([...before, ...after]);
  const n = n1 + n2;
  const total = pooled.reduce((sum, value) => sum + value, 0);
  // The difference of means from the sum of the "after" labels alone: after's mean − before's mean.
  const difference = (afterSum: number) => afterSum / n2 - (total - afterSum) / n1;
  const observed = difference(after.reduce((sum, value) => sum + value, 0));
  const scale = Math.max(1e-300, Math.abs(observed)) * 1e-12;
  if (n > PERMUTATION_UNIT_LIMIT) {
    const mean = total / n;
    const variance = pooled.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1);
    const sd = Math.sqrt(variance * (1 / n1 + 1 / n2));
    if (!(sd > 0)) return { p: 1, pRise: 1, pFall: 1, rise: observed };
    const z = observed / sd;
    const [pRise, pFall] = [upperNormalTail(z), upperNormalTail(-z)];
    return { p: Math.min(1, 2 * Math.min(pRise, pFall)), pRise, pFall, rise: observed };
  }
  const random = seededUniform(SEED);
  const order = new Int32Array(n).map((_, k) => k);
  let up = 0;
  let down = 0;
  let far = 0;
  for (let b = 0; b < PERMUTATIONS; b++) {
    // A partial Fisher–Yates shuffle draws the n2 "after" labels.
    let afterSum = 0;
    for (let k = 0; k < n2; k++) {
      const j = k + Math.floor(random() * (n - k));
      const swap = order[k]!;
      order[k] = order[j]!;
      order[j] = swap;
      afterSum += pooled[order[k]!]!;
    }
    const value = difference(afterSum);
    if (value >= observed - scale) up++;
    if (value <= observed + scale) down++;
    if (Math.abs(value) >= Math.abs(observed) - scale) far++;
  }
  const share = (count: number) => (1 + count) / (1 + PERMUTATIONS);
  return { p: share(far), pRise: share(up), pFall: share(down), rise: observed };
}

/**
 * The two-sided 95 % quantile of Student's t with ν degrees of freedom: exact for ν = 1, 2; beyond, the
 * Cornish–Fisher expansion around the normal's (Abramowitz & Stegun 26.7.5), within 0.005 from ν = 3.
 */
export function studentQuantile95(nu: number): number {
  if (nu <= 1) return 12.706204736174698;
  if (nu === 2) return 4.302652729749464;
  const z = 1.959963984540054;
  return (
    z +
    (z ** 3 + z) / 4 / nu +
    (5 * z ** 5 + 16 * z ** 3 + 3 * z) / 96 / nu ** 2 +
    (3 * z ** 7 + 19 * z ** 5 + 17 * z ** 3 - 15 * z) / 384 / nu ** 3 +
    (79 * z ** 9 + 776 * z ** 7 + 1482 * z ** 5 - 1920 * z ** 3 - 945 * z) / 92160 / nu ** 4
  );
}

/** The mean of independent units' scores with Student's t 95 % interval; null for no unit, the point for one. */
export function meanWithInterval(scores: readonly number[]): { readonly mean: number; readonly low: number; readonly high: number } | null {
  const n = scores.length;
  if (n === 0) return null;
  const mean = scores.reduce((sum, value) => sum + value, 0) / n;
  if (n === 1) return { mean, low: mean, high: mean };
  const sd = Math.sqrt(scores.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1));
  const half = (studentQuantile95(n - 1) * sd) / Math.sqrt(n);
  return { mean, low: mean - half, high: mean + half };
}
