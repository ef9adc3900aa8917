import { dotEnclosure, maxRowSquare, minRowDot, type Enclosure } from "../math/dot-enclosure.js";
import { divDown, mulUp, sqrtDown, sqrtUp } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";

/** The margin of a separator ŵ (any positive scale) on the learner's data, from intervals. */
export interface SeparatorMargin {
  /** γ = min_i ŵ·u_i / ‖ŵ‖, its lower end (the exact value may be a little larger); ≤ 0: not proven to separate. */
  readonly margin: number;
  /** Holds a = min_i ŵ·u_i. */
  readonly a: Enclosure;
  /** Holds S = ‖ŵ‖². */
  readonly s: Enclosure;
}

/**
 * The margin of ŵ, rounded down (docs/bounds.md, "Rounding"): a and S as compensated dot products with
 * their error bounds (dot-enclosure.ts), then a/√S with each operation rounded down. A separator counts as
 * separating only where a's lower end is > 0. `dots`: ŵ·u_i of every row as rowDots sums them, where the
 * caller has them already (see minRowDot).
 */
export function separatorMargin(data: LearnerData, separator: ArrayLike<number>, dots?: ArrayLike<number>): SeparatorMargin {
  const s = dotEnclosure(separator, 0, separator, 0, data.dim);
  // Σ_j |ŵ_j u_ij| ≤ ‖ŵ‖·R for every row (Cauchy–Schwarz): the scale of the dots' error bound.
  const a = minRowDot(data.u, data.n, data.dim, separator, mulUp(sqrtUp(s.hi), sqrtUp(maxRowSquare(data.u, data.n, data.dim).hi)), dots);
  // Rounded down on both sides of 0: a positive a over the largest √S, a negative one over the smallest (a
  // plain division had rounded noisy data's negative margins up to 1.3e-16 above their exact value).
  const margin = a.lo > 0 ? divDown(a.lo, sqrtUp(s.hi)) : a.lo < 0 && s.lo > 0 ? divDown(a.lo, sqrtDown(s.lo)) : a.lo / Math.sqrt(s.hi);
  return { margin, a, s };
}
