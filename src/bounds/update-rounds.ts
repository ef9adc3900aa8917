import { dotEnclosure, type Enclosure } from "../math/dot-enclosure.js";
import { addDown, addUp, mulDown, mulUp } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";

/**
 * What a run's update rounds M add up to, from its per-point update counts c_i (the perceptron's `counts`):
 * the a-posteriori quantities of docs/theory.md ("Why a bound is loose", "Mistake-set bounds") need no more.
 */
export interface UpdateRounds {
  readonly counts: Int32Array;
  /** k = Σ c_i, the run's updates. */
  readonly updates: number;
  /** Holds S_M = Σ_{t∈M} ‖u_t‖² = Σ c_i ‖u_i‖² (each row's square by its compensated enclosure, summed outward). */
  readonly squares: Enclosure;
  /**
   * W = Σ c_i u_i, summed point by point in index order: ŵ_k/η of the run from ŵ(0) = 0 in exact arithmetic
   * (the run's float64 ŵ_k carries the rounding of every update; the proof's chain is about this sum).
   */
  readonly sum: Float64Array;
}

export function updateRounds(data: LearnerData, counts: Int32Array): UpdateRounds {
  const { n, dim, u } = data;
  if (counts.length !== n) throw new RangeError(`update counts have length ${counts.length}, expected ${n}`);
  let updates = 0;
  let lo = 0;
  let hi = 0;
  const sum = new Float64Array(dim);
  for (let i = 0; i < n; i++) {
    const c = counts[i]!;
    if (c === 0) continue;
    updates += c;
    const row = i * dim;
    const square = dotEnclosure(u, row, u, row, dim);
    lo = addDown(lo, mulDown(c, square.lo));
    hi = addUp(hi, mulUp(c, square.hi));
    for (let j = 0; j < dim; j++) sum[j]! += c * u[row + j]!;
  }
  return { counts, updates, squares: { lo, hi }, sum };
}
