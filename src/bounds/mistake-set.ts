import { dotEnclosure } from "../math/dot-enclosure.js";
import { mul, point } from "../math/interval.js";
import { addUp, divDown, divUp, mulUp, sqrtUp, subUp } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import type { UpdateRounds } from "./update-rounds.js";
import { allZero } from "../math/array-tests.js";

/**
 * The a-posteriori mistake-set bound of docs/theory.md ("Mistake-set bounds"; Mohri & Rostamizadeh 2013,
 * Shalev-Shwartz 2011) at v = scale·direction: for every v, any ŵ(0) and η > 0,
 *
 *     k ≤ MS(v) = L(v) + (‖v‖ √(‖ŵ(0)‖² + η² S_M) − v·ŵ(0)) / η,   L(v) = Σ_i c_i max(0, 1 − v·u_i),
 *
 * (from ŵ(0) = 0: L(v) + ‖v‖√S_M). A certificate about the rounds M the run made, not a prediction: it is
 * never part of `best`. Its minimum over v is k itself (v = 0), so only a v chosen without looking at M says
 * anything: the separators scaled to margin 1, and the Freund–Schapire optimum (docs/bounds.md).
 *
 * The upper end of the value for v as given (v = scale·direction is never formed, so no rounding of it
 * enters): each v·u_i by its compensated enclosure times the scale rounded down, each hinge, product and
 * sum rounded up; ‖v‖, S_M and ‖ŵ(0)‖² by their upper ends, v·ŵ(0) by its lower end.
 */
export function mistakeSetBound(
  data: LearnerData,
  rounds: UpdateRounds,
  direction: ArrayLike<number>,
  scale: number,
  eta: number,
  initialWeights: Float64Array,
): number {
  const { n, dim, u } = data;
  if (!(scale >= 0) || !Number.isFinite(scale)) throw new RangeError(`a mistake-set bound needs a finite scale ≥ 0 (got ${scale})`);
  if (scale === 0) return rounds.updates;
  const s = point(scale);
  let hinge = 0;
  for (let i = 0; i < n; i++) {
    const c = rounds.counts[i]!;
    if (c === 0) continue;
    const margin = mul(s, dotEnclosure(direction, 0, u, i * dim, dim)).lo;
    const slack = subUp(1, margin);
    if (slack > 0) hinge = addUp(hinge, mulUp(c, slack));
  }
  const norm = mulUp(scale, sqrtUp(dotEnclosure(direction, 0, direction, 0, dim).hi));
  const squares = rounds.squares.hi;
  if (allZero(initialWeights)) return addUp(hinge, mulUp(norm, sqrtUp(squares)));
  // Divided by η before anything is squared or summed: (‖v‖√(‖ŵ(0)‖² + η² S_M) − v·ŵ(0))/η is
  // ‖v‖√((‖ŵ(0)‖/η)² + S_M) − v·ŵ(0)/η, and η² (1e300 at η = 1e150) no longer overflows a finite value.
  const start = divUp(sqrtUp(dotEnclosure(initialWeights, 0, initialWeights, 0, dim).hi), eta);
  const length = mulUp(norm, sqrtUp(addUp(mulUp(start, start), squares)));
  const offset = divDown(mul(s, dotEnclosure(direction, 0, initialWeights, 0, dim)).lo, eta);
  // ≥ 0 in exact arithmetic (Cauchy–Schwarz); its upper end is ≥ that.
  return addUp(hinge, subUp(length, offset));
}
