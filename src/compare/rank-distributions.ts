/**
 * The exact null distributions of the two rank statistics compare uses, for samples small enough to list
 * them: where the normal approximation is off on small or tied samples (an audit measured Mann–Whitney's p
 * off by 0.5–1.9× at 5 repeats a side with tied update counts), and where a rank interval's true level must
 * be said (a signed-rank interval at 5 pairs cannot reach 95 %: its widest is 93.75 %).
 */

/** Samples this size or smaller (both sides together) get the exact permutation distribution of the rank sum. */
export const EXACT_TWO_SAMPLE_LIMIT = 40;

/**
 * The permutation distribution of the rank sum of `n1` values drawn from a pool of `ranks` (doubled mid-ranks,
 * integers, ties included): P(sum = s) for every doubled sum s, each subset of size n1 equally likely (the
 * null of no difference between the two samples). One pass a rank, over (how many taken, sum).
 */
export function rankSumDistribution(ranks: readonly number[], n1: number): Float64Array {
  const total = ranks.reduce((sum, rank) => sum + rank, 0);
  // ways[k][s]: subsets of k of the ranks seen so far with doubled sum s, as a share of all (scaled as we go).
  let ways: Float64Array[] = Array.from({ length: n1 + 1 }, () => new Float64Array(total + 1));
  ways[0]![0] = 1;
  let reach = 0;
  for (const rank of ranks) {
    const next = ways.map((row) => row.slice());
    for (let k = 0; k < n1; k++) {
      const row = ways[k]!;
      const into = next[k + 1]!;
      for (let s = 0; s <= reach; s++) if (row[s] !== 0) into[s + rank]! += row[s]!;
    }
    reach += rank;
    ways = next;
  }
  const distribution = ways[n1]!;
  let sum = 0;
  for (const share of distribution) sum += share;
  for (let s = 0; s < distribution.length; s++) distribution[s]! /= sum;
  return distribution;
}

/** P(S ≤ s) and P(S ≥ s) of a distribution over integer sums. */
export function tails(distribution: Float64Array, s: number): { readonly below: number; readonly above: number } {
  let below = 0;
  let above = 0;
  for (let t = 0; t < distribution.length; t++) {
    if (t <= s) below += distribution[t]!;
    if (t >= s) above += distribution[t]!;
  }
  return { below: Math.min(1, below), above: Math.min(1, above) };
}

/**
 * The exact distribution of the signed-rank statistic W₊ with ranks 1..n (no ties: the interval's ranks are
 * those of the Walsh averages): P(W₊ = w) for w = 0..n(n+1)/2.
 */
export function signedRankDistribution(n: number): Float64Array {
  const total = (n * (n + 1)) / 2;
  let distribution = new Float64Array(total + 1);
  distribution[0] = 1;
  let reach = 0;
  for (let rank = 1; rank <= n; rank++) {
    const next = new Float64Array(total + 1);
    for (let s = 0; s <= reach; s++) {
      const p = distribution[s]!;
      if (p === 0) continue;
      next[s]! += p / 2;
      next[s + rank]! += p / 2;
    }
    reach += rank;
    distribution = next;
  }
  return distribution;
}

/**
 * The exact distribution of the Mann–Whitney U statistic of samples of n and m without ties: P(U = u) for
 * u = 0..nm (the number of pairs with y above x), by the recursion on the largest value's sample.
 */
export function mannWhitneyDistribution(n: number, m: number): Float64Array {
  // count[i][j][u]: arrangements of i x's and j y's with statistic u; built up row by row as shares.
  let previous: Float64Array[] = Array.from({ length: m + 1 }, () => new Float64Array(n * m + 1));
  for (let j = 0; j <= m; j++) previous[j]![0] = 1; // i = 0: U = 0 whatever j
  for (let i = 1; i <= n; i++) {
    const current: Float64Array[] = Array.from({ length: m + 1 }, () => new Float64Array(n * m + 1));
    current[0]![0] = 1; // j = 0
    for (let j = 1; j <= m; j++) {
      const row = current[j]!;
      // The largest of the i + j values is a y (share j/(i+j)): it is above all i x's, U gains i; else an x, U as for (i − 1, j).
      const withY = current[j - 1]!;
      const withX = previous[j]!;
      const [py, px] = [j / (i + j), i / (i + j)];
      for (let u = 0; u <= i * j; u++) row[u] = (u >= i ? py * withY[u - i]! : 0) + px * withX[u]!;
    }
    previous = current;
  }
  return previous[m]!;
}

/**
 * The rank C of a rank interval (the C-th smallest and C-th largest of the M Walsh averages or differences)
 * whose exact level is at least `level`, from the statistic's exact distribution, and the level it achieves:
 * the largest C with P(statistic < C) ≤ (1 − level)/2, at least 1 (then the interval is the range, and its
 * level may fall below the nominal one: said, not hidden).
 */
export function exactRankInterval(distribution: Float64Array, level: number): { readonly c: number; readonly level: number } {
  const tail = (1 - level) / 2;
  // cumulative = P(statistic ≤ c − 1); C grows while the next still keeps it within the tail.
  let c = 1;
  let cumulative = distribution[0]!;
  while (c < distribution.length && cumulative + distribution[c]! <= tail * (1 + 1e-12)) {
    cumulative += distribution[c]!;
    c++;
  }
  return { c, level: 1 - 2 * cumulative };
}
