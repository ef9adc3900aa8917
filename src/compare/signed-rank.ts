/**
 * The Wilcoxon signed-rank test of paired differences (two-sided): are they centred on 0? Zeros are dropped
 * (Wilcoxon's own rule), ties take their mid-ranks. Exact, by the permutation distribution of the signs
 * (each difference's sign ± with probability ½ under the null, its rank fixed), up to EXACT_LIMIT non-zero
 * differences; beyond, the normal approximation with the ties' variance correction and a continuity
 * correction of ½. Null when no difference is non-zero (nothing to test).
 */
export const EXACT_LIMIT = 60;

export function signedRankP(differences: readonly number[]): number | null {
  return signedRank(differences)?.p ?? null;
}

/**
 * signedRankP with the direction its statistic sees: W₊ − W₋ (doubled), above 0 where the positive differences
 * outrank the negative ones. The one-sided p of a rise follows it (see mannWhitney).
 */
export function signedRank(differences: readonly number[]): { readonly p: number; readonly rise: number } | null {
  const nonZero = differences.filter((difference) => difference !== 0 && !Number.isNaN(difference));
  const n = nonZero.length;
  if (n === 0) return null;
  const order = nonZero.map((difference, k) => ({ size: Math.abs(difference), positive: difference > 0, k })).sort((a, b) => a.size - b.size);
  // Doubled mid-ranks: integers, so that the exact distribution lives on integer sums.
  const doubled = new Array<number>(n);
  const tieSizes: number[] = [];
  for (let start = 0; start < n; ) {
    let end = start + 1;
    while (end < n && order[end]!.size === order[start]!.size) end++;
    for (let k = start; k < end; k++) doubled[k] = start + 1 + end; // 2 × (start + 1 + end) / 2
    if (end - start > 1) tieSizes.push(end - start);
    start = end;
  }
  let positiveSum = 0;
  for (let k = 0; k < n; k++) if (order[k]!.positive) positiveSum += doubled[k]!;
  const total = n * (n + 1); // the doubled ranks add up to 2 · n(n + 1)/2
  const rise = 2 * positiveSum - total;
  if (n <= EXACT_LIMIT) {
    // P(W₊ = s) for every doubled sum s, one rank at a time: each enters the positive sum with probability ½.
    let distribution = new Float64Array(total + 1);
    distribution[0] = 1;
    let reach = 0;
    for (const rank of doubled) {
      const next = new Float64Array(total + 1);
      for (let s = 0; s <= reach; s++) {
        const p = distribution[s]!;
        if (p === 0) continue;
        next[s] = next[s]! + p / 2;
        next[s + rank] = next[s + rank]! + p / 2;
      }
      reach += rank;
      distribution = next;
    }
    let below = 0;
    let above = 0;
    for (let s = 0; s <= total; s++) {
      if (s <= positiveSum) below += distribution[s]!;
      if (s >= positiveSum) above += distribution[s]!;
    }
    return { p: Math.min(1, 2 * Math.min(below, above)), rise };
  }
  const mean = total / 2; // of the doubled sum
  const ties = tieSizes.reduce((sum, t) => sum + t * t * t - t, 0);
  // Var(W₊) = n(n+1)(2n+1)/24 − Σ(t³ − t)/48; the doubled sum has 4 times it.
  const sd = Math.sqrt(4 * ((n * (n + 1) * (2 * n + 1)) / 24 - ties / 48));
  if (sd === 0) return { p: 1, rise };
  const z = (Math.abs(positiveSum - mean) - 1) / sd; // continuity: ½ of a rank, 1 of a doubled one
  return { p: Math.min(1, 2 * upperNormalTail(Math.max(0, z))), rise };
}

/** P(Z > z) of a standard normal, by the complementary error function (Numerical Recipes' erfc, 1.2e-7 relative). */
export function upperNormalTail(z: number): number {
  const x = z / Math.SQRT2;
  const t = 1 / (1 + 0.5 * Math.abs(x));
  const erfc =
    t *
    Math.exp(
      -x * x -
        1.26551223 +
        t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (-0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))),
    );
  return x >= 0 ? erfc / 2 : 1 - erfc / 2;
}
