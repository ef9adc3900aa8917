import { dotEnclosure, maxRowSquare, type Enclosure } from "../math/dot-enclosure.js";
import { minRowDot } from "./min-row-dot.js";
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
export function separatorMargin(data: LearnerData, given: ArrayLike<number>, givenDots?: ArrayLike<number>): SeparatorMargin {
  const separator = withinScale(given);
  const dots = separator === given ? givenDots : undefined;
  const s = dotEnclosure(separator, 0, separator, 0, data.dim);
  // Σ_j |ŵ_j u_ij| ≤ ‖ŵ‖·R for every row (Cauchy–Schwarz): the scale of the dots' error bound.
  const a = minRowDot(data.u, data.n, data.dim, separator, mulUp(sqrtUp(s.hi), sqrtUp(maxRowSquare(data.u, data.n, data.dim).hi)), dots);
  // Rounded down on both sides of 0: a positive a over the largest √S, a negative one over the smallest (a
  // plain division had rounded noisy data's negative margins up to 1.3e-16 above their exact value).
  const margin = a.lo > 0 ? divDown(a.lo, sqrtUp(s.hi)) : a.lo < 0 && s.lo > 0 ? divDown(a.lo, sqrtDown(s.lo)) : a.lo / Math.sqrt(s.hi);
  return { margin, a, s };
}

/** The largest |ŵ_j| a separator is taken at as it is: beyond, ‖ŵ‖² leaves the range where it is enclosed tightly. */
const SCALE_WINDOW = { low: 2 ** -100, high: 2 ** 100 } as const;

/**
 * A separator whose largest component lies outside [2⁻¹⁰⁰, 2¹⁰⁰], scaled by a power of two into [1, 2)
 * (exactly: the same direction, the same margin and bounds, which depend only on the direction); any other
 * as it is (so every table's separators, which lie well inside, keep their bits). A max-margin separator of
 * data near 1e±150 is that far from 1: ‖ŵ‖² over- or underflowed, and the bounds with it (a Novikoff bound
 * of ∞ on a certified optimal separator, a negative one from an underflowed γ²).
 */
export function withinScale<T extends ArrayLike<number>>(separator: T): T | Float64Array {
  let largest = 0;
  for (let j = 0; j < separator.length; j++) largest = Math.max(largest, Math.abs(separator[j]!));
  if (!(largest > 0) || !Number.isFinite(largest) || (largest >= SCALE_WINDOW.low && largest <= SCALE_WINDOW.high)) return separator;
  const exponent = Math.floor(Math.log2(largest));
  // Two factors, each a normal power of two, so that neither over- nor underflows on its own.
  const half = Math.trunc(exponent / 2);
  const [first, second] = [2 ** -half, 2 ** -(exponent - half)];
  const scaled = Float64Array.from({ length: separator.length }, (_, j) => separator[j]! * first * second);
  // Exact unless a component fell to a subnormal on the way: then the separator as given.
  for (let j = 0; j < scaled.length; j++) if (scaled[j]! / second / first !== separator[j]) return separator;
  return scaled;
}
