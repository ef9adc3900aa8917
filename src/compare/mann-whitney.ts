import { errorFunction, wilcoxonRankSum } from "simple-statistics";
import { EXACT_TWO_SAMPLE_LIMIT, rankSumDistribution, tails } from "./rank-distributions.js";

/**
 * Two-sided Mann–Whitney U test: exact on small samples, else by its normal approximation, with the tie
 * correction of the variance and a continuity correction of 1/2 (see mannWhitney). simple-statistics gives the rank sum W of x (ranks from 1, ties
 * averaged: 6 for x = [1, 2, 3] against y = [4, 5, 6]), so U = W − n₁(n₁ + 1)/2. Returns p = 1 when the two samples cannot be told
 * apart at all (every value tied) and null when a sample is empty.
 */
export function mannWhitneyP(x: readonly number[], y: readonly number[]): number | null {
  return mannWhitney(x, y)?.p ?? null;
}

/**
 * mannWhitneyP with the direction of the difference its statistic sees: n₁n₂/2 − U of x, above 0 where y tends to
 * exceed x (more pairs with y above than below). The one-sided p of a rise follows it: Hodges–Lehmann's shift, the
 * median of the differences, is 0 wherever most pairs tie (integer update counts), whatever U says.
 *
 * Up to EXACT_TWO_SAMPLE_LIMIT values in all, p is exact: the permutation distribution of x's rank sum with the
 * pooled mid-ranks (ties included), and so is `pRise`, the one-sided p of a rise, P(rank sum of x ≤ observed)
 * (with ties that distribution is not symmetric, so the one-sided p is not half the two-sided one). Beyond, the
 * normal approximation with the tie correction of the variance and a continuity correction of 1/2, and pRise null.
 */
export function mannWhitney(x: readonly number[], y: readonly number[]): { readonly p: number; readonly rise: number; readonly pRise: number | null; readonly exact: boolean } | null {
  const n1 = x.length;
  const n2 = y.length;
  if (n1 === 0 || n2 === 0) return null;
  const u = wilcoxonRankSum(x as number[], y as number[]) - (n1 * (n1 + 1)) / 2;
  const rise = (n1 * n2) / 2 - u;
  const n = n1 + n2;
  if (n <= EXACT_TWO_SAMPLE_LIMIT) {
    // Doubled mid-ranks of the pooled values: integers, with x's sum among every subset of n1 of them.
    const pooled = [...x.map((value) => ({ value, ofX: true })), ...y.map((value) => ({ value, ofX: false }))].sort((a, b) => a.value - b.value);
    const ranks = new Array<number>(n);
    let observed = 0;
    for (let start = 0; start < n; ) {
      let end = start + 1;
      while (end < n && pooled[end]!.value === pooled[start]!.value) end++;
      for (let k = start; k < end; k++) {
        ranks[k] = start + 1 + end;
        if (pooled[k]!.ofX) observed += start + 1 + end;
      }
      start = end;
    }
    const distribution = rankSumDistribution(ranks, n1);
    const { below, above } = tails(distribution, observed);
    // Two-sided as R's exact wilcox.test: the smaller tail, doubled.
    return { p: Math.min(1, 2 * Math.min(below, above)), rise, pRise: below, exact: true };
  }
  const counts = new Map<number, number>();
  for (const value of [...x, ...y]) counts.set(value, (counts.get(value) ?? 0) + 1);
  let ties = 0;
  for (const t of counts.values()) ties += t * t * t - t;
  const variance = ((n1 * n2) / 12) * (n + 1 - ties / (n * (n - 1)));
  if (!(variance > 0)) return { p: 1, rise, pRise: null, exact: false };
  const shift = Math.abs(u - (n1 * n2) / 2);
  const z = Math.max(0, shift - 0.5) / Math.sqrt(variance);
  // Φ(z) by the error function (accurate to about 1e-7): simple-statistics' cumulativeStdNormalProbability
  // reads a table to 0.01 in z, too coarse near the test's usual levels.
  return { p: Math.min(1, 1 - errorFunction(z / Math.SQRT2)), rise, pRise: null, exact: false };
}
