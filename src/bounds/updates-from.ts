/** Novikoff's argument from a state of the worst order's search (docs/theory.md, "The worst order"): how many updates may still come. */

import { addUp, divUp, mulDown, mulUp, sqrtUp, subDown } from "../math/outward-rounding.js";

/**
 * The largest k with (A + k g)² ≤ ‖v‖² (s + k M) or A + k g < 0, rounded outward to an upper bound: after k
 * updates from a weight with v·ŵ/η ≥ A and ‖ŵ‖²/η² ≤ s, v·ŵ grows by at least η g an update and ‖ŵ‖² by at
 * most η² M (an update is made on a mistake, ŵ·u ≤ 0), and v·ŵ ≤ ‖v‖ ‖ŵ‖ (docs/theory.md, "The worst order").
 */
export function updatesFrom(A: number, s: number, g: number, norm: number, M: number): number {
  return largerRootUp(upperCoefficients(A, s, g, norm, M), g);
}

/**
 * updatesFrom's bound, most often at half its cost: the root in plain float64, floored, then proved by one
 * evaluation rounded outward. P(k) = g²k² − Lk − C with C ≥ 0 has its smaller root at or below 0, so P(k) > 0
 * at a k ≥ 1 puts k above the larger root, and every feasible count at or below k − 1 (L and C taken at their
 * upper ends, as updatesFrom takes them). Where that evaluation cannot prove it, updatesFrom's answer.
 */
export function updatesFromChecked(A: number, s: number, g: number, norm: number, M: number): number {
  const L = norm * M - 2 * g * A;
  const C = Math.max(0, norm * s - A * A);
  const k = Math.floor((L + Math.sqrt(L * L + 4 * g * g * C)) / (2 * g * g)) + 1;
  const upper = upperCoefficients(A, s, g, norm, M);
  if (!(k >= 1 && k < 2 ** 26)) return largerRootUp(upper, g);
  // k² is exact below 2⁵², and k·L's rounding is outward by mulUp.
  const value = subDown(subDown(mulDown(mulDown(g, g), k * k), mulUp(upper.L, k)), upper.C);
  return value > 0 ? k - 1 : largerRootUp(upper, g);
}

/**
 * g² k² − L k − C ≤ 0 with L = ‖v‖²M − 2Ag and C = ‖v‖²s − A², each at its upper end, every operation rounded
 * up (C ≥ 0 exactly, by Cauchy–Schwarz where A = v·ŵ/η; at a lower A it is clamped at 0, which only raises the root).
 */
function upperCoefficients(A: number, s: number, g: number, norm: number, M: number): { L: number; C: number } {
  return { L: addUp(mulUp(norm, M), -mulDown(2 * g, A)), C: Math.max(0, addUp(mulUp(norm, s), -mulDown(A, A))) };
}

/** The larger root (L + √(L² + 4g²C)) / 2g², which grows with L and C, rounded up, then floored. */
function largerRootUp({ L, C }: { L: number; C: number }, g: number): number {
  const discriminant = addUp(mulUp(L, L), mulUp(mulUp(2 * g, 2 * g), C));
  return Math.floor(divUp(addUp(L, sqrtUp(discriminant)), mulDown(2 * g, g)));
}
