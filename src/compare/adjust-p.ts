/** How p-values of many checks are adjusted before they are compared with alpha. */
export type Correction = "holm" | "bh" | "none";

export const CORRECTIONS: readonly Correction[] = ["holm", "bh", "none"];

/**
 * Adjusted p-values, in the order given (null stays null and does not count as a test):
 * - holm: Holm's step-down adjustment. Rejecting where the adjusted p < alpha keeps the chance of any
 *   false rejection among all the checks (the family-wise error) at most alpha, whatever their dependence.
 * - bh: Benjamini–Hochberg. Keeps the expected share of false rejections among the rejections (the
 *   false discovery rate) at most alpha, for independent or positively dependent checks.
 * - none: as they are.
 * Both as R's p.adjust computes them ("holm", "BH").
 */
export function adjustP(ps: readonly (number | null)[], correction: Correction): (number | null)[] {
  if (correction === "none") return [...ps];
  const tested = ps.flatMap((p, index) => (p === null ? [] : [{ p, index }])).sort((x, y) => x.p - y.p);
  const m = tested.length;
  const adjusted: (number | null)[] = ps.map(() => null);
  if (correction === "holm") {
    let running = 0;
    tested.forEach(({ p, index }, k) => {
      running = Math.max(running, Math.min(1, (m - k) * p));
      adjusted[index] = running;
    });
  } else {
    let running = 1;
    for (let k = m - 1; k >= 0; k--) {
      const { p, index } = tested[k]!;
      running = Math.min(running, Math.min(1, (m / (k + 1)) * p));
      adjusted[index] = running;
    }
  }
  return adjusted;
}

/**
 * Holm's step-down adjustment with weights (Holm 1979, weighted form): a check of weight w gets the share
 * w/Σw of alpha at the first step. Ordered by p/w; the adjusted p of the j-th is the running maximum of
 * p_(i)·(Σ of the weights not yet rejected)/w_(i). The family-wise error stays at most alpha whatever the
 * weights; equal weights give adjustP's holm. Null stays null and does not count.
 */
export function weightedHolm(ps: readonly (number | null)[], weights: readonly number[]): (number | null)[] {
  const tested = ps.flatMap((p, index) => (p === null ? [] : [{ p, w: weights[index]!, index }])).sort((x, y) => x.p / x.w - y.p / y.w);
  let left = tested.reduce((sum, check) => sum + check.w, 0);
  const adjusted: (number | null)[] = ps.map(() => null);
  let running = 0;
  for (const { p, w, index } of tested) {
    running = Math.max(running, Math.min(1, (p * left) / w));
    adjusted[index] = running;
    left -= w;
  }
  return adjusted;
}
