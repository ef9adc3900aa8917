import type { DataSet } from "./data-set.js";

/**
 * The three-point family of docs/theory.md: 1-D, with bias, all labels +1, presented cyclically in the order
 * x = (c/2, −c, c), c² ≥ 2. The separator (w, b) = (0, 1) has margin 1 and R² = 1 + c², so
 * (R/γ)² = 1 + c², while the perceptron makes 1 + ⌊c²/2⌋ updates: the ratio tends to 1/2.
 */
export function generateThreePoint(c: number): DataSet {
  if (!(c * c >= 2)) throw new RangeError(`three-point needs c² ≥ 2 (got c = ${c})`);
  return {
    n: 3,
    d: 1,
    x: Float64Array.of(c / 2, -c, c),
    y: Int8Array.of(1, 1, 1),
    planted: { w: Float64Array.of(0), b: 1 },
  };
}
