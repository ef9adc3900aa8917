import { EXACT_LIMIT } from "./signed-rank.js";
import { EXACT_TWO_SAMPLE_LIMIT, exactRankInterval, mannWhitneyDistribution, signedRankDistribution } from "./rank-distributions.js";

/** An effect and its confidence interval: current − baseline, in the check's units. */
export interface Effect {
  /** The estimate: Hodges–Lehmann's shift for a statistic, the difference of shares for convergence. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /**
   * The interval's confidence level: 0.95, or what a rank interval truly achieves where its exact distribution
   * is listed (a little above 0.95, or below it where no interval reaches 0.95: 0.9375 at 5 pairs).
   */
  readonly level: number;
  /** How it was estimated. */
  readonly method: string;
}

const LEVEL = 0.95;
/** z of the two-sided 95 % normal interval. */
const Z = 1.959963984540054;
/**
 * The paired shift: Hodges–Lehmann's estimate (the median of the Walsh averages (d_i + d_j)/2, i ≤ j) with
 * the signed-rank test's interval (Hollander & Wolfe): the Walsh averages of ranks C and M + 1 − C, M = n(n+1)/2,
 * C from the normal approximation of the signed-rank statistic (conservative at small n). Zeros are kept (the
 * estimate of no change is 0). The ranked averages are found by selection (orderStatistic), never listed:
 * O(n log n) at any n (listing all M took 100 MB and seconds at n = 5 000, and was capped).
 */
export function pairedShift(differences: readonly number[]): Effect | null {
  const d = Float64Array.from(differences.filter((value) => Number.isFinite(value))).sort();
  const n = d.length;
  if (n === 0) return null;
  const m = (n * (n + 1)) / 2;
  // Walsh averages ≤ t: for each i, the j ≥ i with (d_i + d_j)/2 ≤ t, j falling as i rises (two pointers).
  const atMost = (t: number) => {
    let count = 0;
    let j = n - 1;
    for (let i = 0; i < n; i++) {
      while (j >= i && !((d[i]! + d[j]!) / 2 <= t)) j--;
      if (j < i) break;
      count += j - i + 1;
    }
    return count;
  };
  const rank = (k: number) => orderStatistic(k, (d[0]! + d[0]!) / 2, (d[n - 1]! + d[n - 1]!) / 2, atMost);
  // C from the signed-rank statistic's exact distribution where it can be listed, with the level it truly
  // achieves (5 pairs: the widest interval, the range, is 93.75 %, and says so); the normal one beyond.
  const { c, level } = n <= EXACT_LIMIT ? exactRankInterval(signedRankDistribution(n), LEVEL) : { c: Math.max(1, Math.floor(m / 2 - Z * Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24))), level: LEVEL };
  return { estimate: middle(m, rank), low: rank(c), high: rank(m + 1 - c), level, method: "Hodges–Lehmann (paired)" };
}

/**
 * The two-sample shift (current − baseline): Hodges–Lehmann's estimate (the median of all differences
 * y_j − x_i) with the Mann–Whitney test's interval (ranks C and nm + 1 − C of the differences, C from the
 * normal approximation). The ranked differences are found by selection, never listed: O((n + m) log) at any
 * size (listing n·m took 12.7 of 17.6 s comparing two folders of 80 000 runs, and was capped at 2·10⁶).
 */
export function twoSampleShift(before: readonly number[], after: readonly number[]): Effect | null {
  const x = Float64Array.from(before.filter((value) => Number.isFinite(value))).sort();
  const y = Float64Array.from(after.filter((value) => Number.isFinite(value))).sort();
  const [n, m] = [x.length, y.length];
  if (n === 0 || m === 0) return null;
  // Differences y_j − x_i ≤ t: for each j, the i with x_i ≥ y_j − t, their first index falling as j rises.
  const atMost = (t: number) => {
    let count = 0;
    let i = n;
    for (let j = m - 1; j >= 0; j--) {
      while (i > 0 && y[j]! - x[i - 1]! <= t) i--;
      count += n - i;
    }
    return count;
  };
  const total = n * m;
  const rank = (k: number) => orderStatistic(k, y[0]! - x[n - 1]!, y[m - 1]! - x[0]!, atMost);
  // C from U's exact distribution on small samples (without ties: with them the level is approximate), with the level achieved.
  const { c, level } =
    n + m <= EXACT_TWO_SAMPLE_LIMIT ? exactRankInterval(mannWhitneyDistribution(n, m), LEVEL) : { c: Math.max(1, Math.floor(total / 2 - Z * Math.sqrt((n * m * (n + m + 1)) / 12))), level: LEVEL };
  return { estimate: middle(total, rank), low: rank(c), high: rank(total + 1 - c), level, method: "Hodges–Lehmann" };
}

/** The median of `count` ranked values (the mean of the middle two for an even count, as simple-statistics' quantileSorted). */
function middle(count: number, rank: (k: number) => number): number {
  return count % 2 === 1 ? rank((count + 1) / 2) : (rank(count / 2) + rank(count / 2 + 1)) / 2;
}

/**
 * The k-th smallest (from 1) of a multiset of float64 values lying in [low, high], given only `atMost(t)`, how
 * many of them are ≤ t: the smallest float64 t with atMost(t) ≥ k, which is that value itself (the count rises
 * only at the values). Bisection over the float64s in order (their bit patterns, ~64 steps), so exact.
 */
function orderStatistic(k: number, low: number, high: number, atMost: (t: number) => number): number {
  // A zero is +0 (between −0 and +0 no count changes).
  if (atMost(low) >= k) return low === 0 ? 0 : low;
  let [lo, hi] = [orderedBits(low), orderedBits(high)];
  // Invariant: atMost(value of lo) < k ≤ atMost(value of hi).
  while (hi - lo > 1n) {
    const mid = lo + (hi - lo) / 2n;
    if (atMost(fromOrderedBits(mid)) >= k) hi = mid;
    else lo = mid;
  }
  const value = fromOrderedBits(hi);
  return value === 0 ? 0 : value;
}

const BITS = new DataView(new ArrayBuffer(8));
const SIGN = 1n << 63n;

/** A float64's place in the order of all float64s, as a BigInt (negative numbers below positive ones). */
function orderedBits(value: number): bigint {
  BITS.setFloat64(0, value === 0 ? 0 : value);
  const bits = BITS.getBigUint64(0);
  return bits & SIGN ? SIGN - 1n - (bits ^ SIGN) : bits + SIGN;
}

function fromOrderedBits(ordered: bigint): number {
  BITS.setBigUint64(0, ordered >= SIGN ? ordered - SIGN : (SIGN - 1n - ordered) ^ SIGN);
  return BITS.getFloat64(0);
}

/** The mean of `values` with its normal 95 % interval. */
export function meanInterval(values: readonly number[]): Effect | null {
  const n = values.length;
  if (n === 0) return null;
  const mean = values.reduce((sum, value) => sum + value, 0) / n;
  const sd = n > 1 ? Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (n - 1)) : 0;
  const half = Z * (sd / Math.sqrt(n));
  return { estimate: mean, low: mean - half, high: mean + half, level: LEVEL, method: "mean" };
}

/** Wilson's score interval of a share k/n at LEVEL: never [0, 0] or outside [0, 1], and near its level at small n. */
export function wilsonInterval(k: number, n: number): { readonly low: number; readonly high: number } {
  if (n === 0) return { low: 0, high: 1 };
  const p = k / n;
  const z2 = Z * Z;
  const centre = (p + z2 / (2 * n)) / (1 + z2 / n);
  const half = (Z * Math.sqrt((p * (1 - p)) / n + z2 / (4 * n * n))) / (1 + z2 / n);
  return { low: Math.max(0, centre - half), high: Math.min(1, centre + half) };
}

/**
 * The change of a share of converged runs, current − baseline, with Newcombe's hybrid score interval (his
 * method 10) built from Wilson's intervals of the two shares: for two samples (Newcombe 1998, Statistics in
 * Medicine 17:873), and for pairs with the correlation of the paired outcomes φ (Newcombe 1998, Statistics in
 * Medicine 17:2635; φ from the 2 × 2 table, its numerator reduced by n/2 where positive, 0 where undefined).
 * Wald's interval, which 0.12 used, covered 64 % at 5 repeats and collapsed to [0, 0] when no run was lost.
 */
export function shareChange(
  counts:
    | { readonly paired: true; readonly both: number; readonly lost: number; readonly gained: number; readonly neither: number }
    | { readonly paired: false; readonly before: number; readonly beforeRuns: number; readonly after: number; readonly afterRuns: number },
): Effect | null {
  if (counts.paired) {
    const { both, lost, gained, neither } = counts;
    const n = both + lost + gained + neither;
    if (n === 0) return null;
    const [p1, p2] = [(both + lost) / n, (both + gained) / n];
    const [w1, w2] = [wilsonInterval(both + lost, n), wilsonInterval(both + gained, n)];
    const denominator = Math.sqrt((both + lost) * (gained + neither) * (both + gained) * (lost + neither));
    const product = both * neither - lost * gained;
    const phi = denominator === 0 ? 0 : (product > 0 ? Math.max(product - n / 2, 0) : product) / denominator;
    const estimate = p2 - p1;
    const low = estimate - Math.sqrt(Math.max(0, (p2 - w2.low) ** 2 - 2 * phi * (p2 - w2.low) * (w1.high - p1) + (w1.high - p1) ** 2));
    const high = estimate + Math.sqrt(Math.max(0, (w2.high - p2) ** 2 - 2 * phi * (w2.high - p2) * (p1 - w1.low) + (p1 - w1.low) ** 2));
    return { estimate, low: Math.max(-1, low), high: Math.min(1, high), level: LEVEL, method: "difference of shares, Newcombe's score interval (paired)" };
  }
  const { before, beforeRuns, after, afterRuns } = counts;
  if (beforeRuns === 0 || afterRuns === 0) return null;
  const [p1, p2] = [before / beforeRuns, after / afterRuns];
  const [w1, w2] = [wilsonInterval(before, beforeRuns), wilsonInterval(after, afterRuns)];
  const estimate = p2 - p1;
  const low = estimate - Math.sqrt((p2 - w2.low) ** 2 + (w1.high - p1) ** 2);
  const high = estimate + Math.sqrt((w2.high - p2) ** 2 + (p1 - w1.low) ** 2);
  return { estimate, low: Math.max(-1, low), high: Math.min(1, high), level: LEVEL, method: "difference of shares, Newcombe's score interval" };
}
