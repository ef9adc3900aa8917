import { upperNormalTail } from "./signed-rank.js";

/**
 * The one-sided sign test: the probability of at least `successes` of `trials` fair coin tosses, P(X ≥ k)
 * for X ~ Binomial(trials, ½). Paired yes/no outcomes (converged before and not after, against the reverse)
 * give McNemar's exact test; units' signs give the sign test. Exact up to 1 000 trials (the binomial's terms
 * by their ratio, 2^−1000 still a normal double), the normal approximation with a continuity correction beyond.
 * 1 when there is no trial.
 */
export function signTestP(successes: number, trials: number): number {
  if (trials === 0 || successes <= 0) return 1;
  if (successes > trials) return 0;
  if (trials <= 1000) {
    let term = 2 ** -trials; // P(X = 0)
    let tail = successes === 0 ? term : 0;
    for (let k = 1; k <= trials; k++) {
      term = (term * (trials - k + 1)) / k;
      if (k >= successes) tail += term;
    }
    return Math.min(1, tail);
  }
  const z = (successes - 0.5 - trials / 2) / Math.sqrt(trials / 4);
  return upperNormalTail(z);
}
