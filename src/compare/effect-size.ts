
/** An effect and its confidence interval: current − baseline, in the check's units. */
export interface Effect {
  /** The estimate: Hodges–Lehmann's shift for a statistic, the difference of shares for convergence. */
  readonly estimate: number;
  readonly low: number;
  readonly high: number;
  /** The interval's confidence level (0.95), as computed (the rank intervals' exact level can be a little higher). */
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
  const c = Math.max(1, Math.floor(m / 2 - Z * Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24)));
  return { estimate: middle(m, rank), low: rank(c), high: rank(m + 1 - c), level: LEVEL, method: "Hodges–Lehmann (paired)" };
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
  const c = Math.max(1, Math.floor(total / 2 - Z * Math.sqrt((n * m * (n + m + 1)) / 12)));
  return { estimate: middle(total, rank), low: rank(c), high: rank(total + 1 - c), level: LEVEL, method: "Hodges–Lehmann" };
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

/**
 * The change of a share of converged runs, current − baseline, with Wald's 95 % interval: for pairs from
 * the discordant counts (lost: converged before only; gained: after only) over n pairs, else from the two
 * shares.
 */
export function shareChange(counts: { readonly paired: true; readonly lost: number; readonly gained: number; readonly n: number } | { readonly paired: false; readonly before: number; readonly beforeRuns: number; readonly after: number; readonly afterRuns: number }): Effect | null {
  if (counts.paired) {
    const { lost, gained, n } = counts;
    if (n === 0) return null;
    const estimate = (gained - lost) / n;
    const half = (Z * Math.sqrt(Math.max(0, lost + gained - n * estimate * estimate))) / n;
    return { estimate, low: estimate - half, high: estimate + half, level: LEVEL, method: "difference of shares (paired)" };
  }
  const { before, beforeRuns, after, afterRuns } = counts;
  if (beforeRuns === 0 || afterRuns === 0) return null;
  const [p, q] = [before / beforeRuns, after / afterRuns];
  const estimate = q - p;
  const half = Z * Math.sqrt((p * (1 - p)) / beforeRuns + (q * (1 - q)) / afterRuns);
  return { estimate, low: estimate - half, high: estimate + half, level: LEVEL, method: "difference of shares" };
}
