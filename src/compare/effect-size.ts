import { quantileSorted } from "simple-statistics";

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
/** The most Walsh averages or pairwise differences taken (beyond, the normal interval on the mean). */
const MOST_PAIRS = 2_000_000;

/**
 * The paired shift: Hodges–Lehmann's estimate (the median of the Walsh averages (d_i + d_j)/2, i ≤ j) with
 * the signed-rank test's interval (Hollander & Wolfe): the Walsh averages of ranks C and M + 1 − C, M = n(n+1)/2,
 * C from the normal approximation of the signed-rank statistic (conservative at small n). Zeros are kept (the
 * estimate of no change is 0). Beyond MOST_PAIRS averages, the mean with its normal interval.
 */
export function pairedShift(differences: readonly number[]): Effect | null {
  const d = differences.filter((value) => Number.isFinite(value));
  const n = d.length;
  if (n === 0) return null;
  const m = (n * (n + 1)) / 2;
  if (m > MOST_PAIRS) return meanInterval(d);
  const walsh = new Float64Array(m);
  let k = 0;
  for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh[k++] = (d[i]! + d[j]!) / 2;
  walsh.sort();
  const c = Math.max(1, Math.floor(m / 2 - Z * Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24)));
  return { estimate: quantileSorted(Array.from(walsh), 0.5), low: walsh[c - 1]!, high: walsh[m - c]!, level: LEVEL, method: "Hodges–Lehmann (paired)" };
}

/**
 * The two-sample shift (current − baseline): Hodges–Lehmann's estimate (the median of all differences
 * y_j − x_i) with the Mann–Whitney test's interval (ranks C and nm + 1 − C of the differences, C from the
 * normal approximation). Beyond MOST_PAIRS differences, the difference of the means with its normal interval.
 */
export function twoSampleShift(before: readonly number[], after: readonly number[]): Effect | null {
  const x = before.filter((value) => Number.isFinite(value));
  const y = after.filter((value) => Number.isFinite(value));
  const [n, m] = [x.length, y.length];
  if (n === 0 || m === 0) return null;
  if (n * m > MOST_PAIRS) {
    const mean = (values: number[]) => values.reduce((sum, value) => sum + value, 0) / values.length;
    const variance = (values: number[]) => values.reduce((sum, value) => sum + (value - mean(values)) ** 2, 0) / Math.max(1, values.length - 1);
    const estimate = mean(y) - mean(x);
    const half = Z * Math.sqrt(variance(x) / n + variance(y) / m);
    return { estimate, low: estimate - half, high: estimate + half, level: LEVEL, method: "difference of means" };
  }
  const differences = new Float64Array(n * m);
  let k = 0;
  for (const a of x) for (const b of y) differences[k++] = b - a;
  differences.sort();
  const total = n * m;
  const c = Math.max(1, Math.floor(total / 2 - Z * Math.sqrt((n * m * (n + m + 1)) / 12)));
  return { estimate: quantileSorted(Array.from(differences), 0.5), low: differences[c - 1]!, high: differences[total - c]!, level: LEVEL, method: "Hodges–Lehmann" };
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
