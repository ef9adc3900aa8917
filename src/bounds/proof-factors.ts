import { dotEnclosure, maxRowSquare } from "../math/dot-enclosure.js";
import { addDown, addUp, divDown, divUp, mulDown, mulUp, sqrtDown, sqrtUp, subDown } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import type { UpdateRounds } from "./update-rounds.js";

/**
 * The slack of each step of Novikoff's proof on the run that happened (docs/theory.md, "Why a bound is
 * loose"): from ŵ(0) = 0, with k ≥ 1 updates, a separator ŵ* of margin γ > 0, W = ŵ_k/η = Σ_M u_t and
 * S_M = Σ_M ‖u_t‖²,
 *
 *     kγ ≤ ŵ*·W ≤ ‖W‖ ≤ √S_M ≤ √k·R,
 *
 * each step a factor ≥ 1, whose product squared is exactly (R/γ)²/k.
 */
export interface ProofFactors {
  /** A = ŵ*·W/(kγ): the updates moved further along ŵ* than the margin. */
  readonly gain: number;
  /** B = ‖W‖/(ŵ*·W): W is not parallel to ŵ*. */
  readonly alignment: number;
  /** C = √S_M/‖W‖: the cross terms ŵ_t·u_t of the updates are negative, not zero. */
  readonly interference: number;
  /** D = √(k R²/S_M): the points updated on are shorter than R. */
  readonly radius: number;
}

/**
 * The four factors for `separator` (any positive scale) of margin `margin` (γ, as the bounds use it), or
 * null where they are not defined: ŵ(0) ≠ 0, no update, or a separator that does not separate. Each is the
 * upper end of an enclosure of its exact value (docs/bounds.md, "Rounding"): ŵ*·W as Σ c_i ŵ*·u_i from the
 * rows' compensated dot products, W = Σ c_i u_i with a bound on its summation's rounding, S_M and R² from their
 * enclosures, every operation rounded outward. So A, B and D, each ≥ 1 in exact arithmetic, are never written
 * below 1 (0.12.2 computed them in plain float64: an ulp below 1 at ordinary scales, 4e-8 below at radius
 * 1e-150); their product is (R/γ)/√k to within a few roundings, never below. C can be below 1 in exact
 * arithmetic where a cross term ŵ_t·u_t the run judged ≤ 0 in float64 is a tie or positive.
 */
export function proofFactors(data: LearnerData, rounds: UpdateRounds, separator: ArrayLike<number>, margin: number, zeroInit: boolean): ProofFactors | null {
  const k = rounds.updates;
  if (!zeroInit || k === 0 || !(margin > 0)) return null;
  const { n, dim, u } = data;
  // ŵ*·W = Σ c_i ŵ*·u_i, and W = Σ c_i u_i with |W_j − w_j| ≤ error_j (each product and sum rounded to
  // nearest: at most half an ulp of its result, 2⁻⁵³ of its size, plus the smallest subnormal for underflow).
  let alongLo = 0;
  let alongHi = 0;
  const w = new Float64Array(dim);
  const error = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    const c = rounds.counts[i]!;
    if (c === 0) continue;
    const dot = dotEnclosure(separator, 0, u, i * dim, dim);
    alongLo = addDown(alongLo, mulDown(c, dot.lo));
    alongHi = addUp(alongHi, mulUp(c, dot.hi));
    for (let j = 0; j < dim; j++) {
      const term = c * u[i * dim + j]!;
      w[j]! += term;
      error[j] = addUp(error[j]!, addUp(mulUp(Math.abs(term) + Math.abs(w[j]!), HALF_ULP), Number.MIN_VALUE));
    }
  }
  let normSquareLo = 0;
  let normSquareHi = 0;
  for (let j = 0; j < dim; j++) {
    const upper = addUp(Math.abs(w[j]!), error[j]!);
    const lower = Math.max(0, subDown(Math.abs(w[j]!), error[j]!));
    normSquareHi = addUp(normSquareHi, mulUp(upper, upper));
    normSquareLo = addDown(normSquareLo, mulDown(lower, lower));
  }
  const separatorSquare = dotEnclosure(separator, 0, separator, 0, dim);
  const projectionLo = divDown(alongLo, sqrtUp(separatorSquare.hi));
  const projectionHi = divUp(alongHi, sqrtDown(separatorSquare.lo));
  const rootLo = sqrtDown(rounds.squares.lo);
  const rootHi = sqrtUp(rounds.squares.hi);
  const radius = sqrtUp(maxRowSquare(u, n, dim).hi);
  if (!(projectionLo > 0) || !(normSquareLo > 0) || !(rootLo > 0)) return null;
  return {
    gain: divUp(projectionHi, mulDown(k, margin)),
    alignment: divUp(sqrtUp(normSquareHi), projectionLo),
    interference: divUp(rootHi, sqrtDown(normSquareLo)),
    radius: divUp(mulUp(radius, sqrtUp(k)), rootLo),
  };
}

/** 2⁻⁵³: a rounding to nearest errs by at most this much of its result's size. */
const HALF_ULP = 2 ** -53;
