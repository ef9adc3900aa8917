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
 * null where they are not defined: ŵ(0) ≠ 0, no update, or a separator that does not separate. Diagnostics,
 * not bounds: computed in plain float64 from the same few numbers (ŵ*·W, ‖W‖, S_M, k, R, γ), so that their
 * product telescopes to R/(γ√k) up to a few roundings. Each is ≥ 1 in exact arithmetic; C can fall below 1
 * by rounding only, where a cross term is a float64 tie (the run decided ŵ_t·u_t ≤ 0 in float64, W is exact).
 */
export function proofFactors(data: LearnerData, rounds: UpdateRounds, separator: ArrayLike<number>, margin: number, zeroInit: boolean): ProofFactors | null {
  const k = rounds.updates;
  if (!zeroInit || k === 0 || !(margin > 0)) return null;
  const { dim } = data;
  const w = rounds.sum;
  let along = 0;
  let separatorSquare = 0;
  let sumSquare = 0;
  for (let j = 0; j < dim; j++) {
    along += separator[j]! * w[j]!;
    separatorSquare += separator[j]! * separator[j]!;
    sumSquare += w[j]! * w[j]!;
  }
  const projection = along / Math.sqrt(separatorSquare);
  const norm = Math.sqrt(sumSquare);
  const root = Math.sqrt((rounds.squares.lo + rounds.squares.hi) / 2);
  const radius = Math.sqrt(data.radiusSquared);
  if (!(projection > 0) || !(norm > 0) || !(root > 0)) return null;
  return {
    gain: projection / (k * margin),
    alignment: norm / projection,
    interference: root / norm,
    radius: (radius * Math.sqrt(k)) / root,
  };
}
