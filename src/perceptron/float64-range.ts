import type { LearnerData } from "./learner-coordinates.js";
import { NumericalRangeError, overflowError } from "./perceptron.js";

/** The smallest positive normal float64 (2⁻¹⁰²²): below it numbers lose their digits (subnormals), then vanish. */
const MIN_NORMAL = 2 ** -1022;

/**
 * Checks, after a run, that float64 could carry it faithfully, so that its count is the perceptron's and
 * not an artefact of rounding (docs/theory.md: a run with (ŵ(0), η) makes the mistakes of (ŵ(0)/η, 1) only in
 * exact arithmetic). A NumericalRangeError (an error row in a sweep) when:
 * - R̂² overflows (data beyond about 1e154): no margin or bound can be computed;
 * - η·R̂ or η·R̂² underflows below the normal range: the increments η·u_i and their dot products with u lose
 *   their digits (η = 5e-324 made a run from ŵ(0) = 0 exceed Novikoff's bound: a false "bug");
 * - |ŵ·u| could have overflowed during the run: every ŵ(t) has ‖ŵ(t)‖ ≤ ‖ŵ(0)‖ + η·t·R̂, so every dot
 *   product of the run is at most (‖ŵ(0)‖ + η·updates·R̂)·R̂; where that is beyond float64, a dot product
 *   may have been ±∞ and its decision wrong (+∞ passes for a correct classification).
 * Kernels throw their own overflow error where they see one first (a NaN dot product, infinite weights).
 */
export function checkFloat64Range(learner: LearnerData, eta: number, initialWeights: Float64Array, updates: number): void {
  const radius = Math.sqrt(learner.radiusSquared);
  if (!Number.isFinite(learner.radiusSquared)) throw overflowError(updates);
  if (radius > 0 && (eta * radius < MIN_NORMAL || eta * learner.radiusSquared < MIN_NORMAL)) {
    throw new NumericalRangeError(
      `float64 underflow: η = ${eta} times the data's squared radius ${learner.radiusSquared} is below 2.2e-308, so the updates lose their digits; ` +
        "from ŵ(0) = 0 a run does not depend on η (use η = 1), otherwise scale η and ŵ(0) together",
    );
  }
  let norm2 = 0;
  for (const w of initialWeights) norm2 += w * w;
  const reach = (Math.sqrt(norm2) + eta * updates * radius) * radius;
  if (!Number.isFinite(reach)) {
    throw new NumericalRangeError(
      `float64 overflow possible: after ${updates} updates a dot product ŵ·u could reach (‖ŵ(0)‖ + η·updates·R̂)·R̂ = ${reach}, beyond float64's range, so the count is not trusted (data or weights too large)`,
    );
  }
}
