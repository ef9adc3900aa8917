import { gammaln } from "simple-statistics";

/**
 * One-sided Fisher exact test that the current share of successes is lower than the baseline's:
 * `baseline` a successes of m, `current` b of n. Under the null (one rate), given the a + b successes of
 * the m + n trials, the current side's count is hypergeometric; p = P(X ≤ b). Exact (log-factorials
 * through simple-statistics' gammaln, summed over the tail), for counts of any size. p = 1 when the
 * current share is not lower.
 *
 * Checked against R: fisher.test(matrix(c(5, 0, 0, 5), 2), alternative = "greater")$p.value = 1/252 =
 * 0.003968 for 5/5 against 0/5.
 */
export function fisherDropP(a: number, m: number, b: number, n: number): number {
  const successes = a + b;
  const total = m + n;
  const lowest = Math.max(0, successes - m);
  const logChoose = (k: number, r: number) => gammaln(k + 1) - gammaln(r + 1) - gammaln(k - r + 1);
  const denominator = logChoose(total, n);
  let p = 0;
  for (let x = lowest; x <= Math.min(b, n, successes); x++) p += Math.exp(logChoose(successes, x) + logChoose(total - successes, n - x) - denominator);
  return Math.min(1, p);
}
