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
