import { dotEnclosure, gamma, type Enclosure } from "../math/dot-enclosure.js";
import { TINY, UNIT } from "../math/outward-rounding.js";
import { ScratchArray } from "../math/scratch-array.js";
import { rowDots } from "../perceptron/row-passes.js";

/**
 * An enclosure of min_i w·u_i over the rows of u (n × dim, row-major): the margin of w before its norm.
 * `scale` must be at least Σ_j |w_j u_ij| for every row (‖w‖·R does, by Cauchy–Schwarz). A plain pass gives
 * each row's dot, within γ_{dim}·scale of the exact one (Higham 3.1); only the rows that bound cannot rule
 * out as the minimum (usually one or two; all of them on the Hadamard family's ties) are taken again by
 * dotEnclosure. The plain pass is what the bounds took before they were rounded outward. A caller that has
 * that pass already (w·u_i of every row, as rowDots sums them) gives it as `given`: those values choose
 * the rows taken again, so they must be exactly the pass's.
 */
export function minRowDot(u: Float64Array, n: number, dim: number, w: ArrayLike<number>, scale: number, given?: ArrayLike<number>): Enclosure {
  if (n === 0) return { lo: NaN, hi: NaN };
  let dots: ArrayLike<number> | undefined = given;
  if (dots === undefined) {
    const pass = ROW_DOTS.of(n);
    rowDots(u, n, dim, w, pass);
    dots = pass;
  }
  let least = Infinity;
  for (let i = 0; i < n; i++) if (dots[i]! < least) least = dots[i]!;
  // Rows within twice the error bound of the least plain dot may hold the exact minimum; the factor 4 (two
  // bounds, one a side) has room for the rounding of this test itself.
  const slack = gamma(dim + 2) * scale * (1 + 8 * UNIT) + dim * 2 * TINY;
  const limit = least + 4 * slack;
  let lo = Infinity;
  let hi = Infinity;
  for (let i = 0; i < n; i++) {
    if (!(dots[i]! <= limit) && Number.isFinite(limit)) continue;
    const enclosure = dotEnclosure(w, 0, u, i * dim, dim);
    lo = Math.min(lo, enclosure.lo);
    hi = Math.min(hi, enclosure.hi);
  }
  return { lo, hi };
}

/** This thread's plain pass of minRowDot. */
const ROW_DOTS = new ScratchArray();
