import type { DataSet } from "../generators/data-set.js";
import { rememberRowSquares } from "../math/dot-enclosure.js";
import { newFloat64Array, ScratchArray, type Float64Allocator } from "../math/scratch-array.js";

/**
 * The data as the learner sees it (THEORY.md, "Data and coordinates"): the normalised vectors
 * u_i = y_i x̂_i, with x̂_i = (x_i, 1) (bias last) when there is a bias and x̂_i = x_i otherwise.
 * A weight vector ŵ separates the data iff ŵ·u_i > 0 for every i.
 */
export interface LearnerData {
  readonly n: number;
  /** d + 1 with a bias, d without. */
  readonly dim: number;
  /** n × dim, row-major. */
  readonly u: Float64Array;
  /** M = R² = max_i ‖u_i‖², summed directly (not squared from R) so integer data stay exact. */
  readonly radiusSquared: number;
}

/** The learner's coordinates of `data`; u is written, every value of it, into `allocate(n·dim)`. */
export function toLearnerCoordinates(data: DataSet, bias: boolean, allocate: Float64Allocator = newFloat64Array): LearnerData {
  const { n, d, x, y } = data;
  const dim = bias ? d + 1 : d;
  const u = allocate(n * dim);
  const squares = SQUARES.of(n);
  let radiusSquared = 0;
  for (let i = 0; i < n; i++) {
    const label = y[i]!;
    let norm2 = 0;
    for (let j = 0; j < d; j++) {
      const value = label * x[i * d + j]!;
      u[i * dim + j] = value;
      norm2 += value * value;
    }
    if (bias) {
      u[i * dim + d] = label;
      norm2 += 1;
    }
    squares[i] = norm2;
    if (norm2 > radiusSquared) radiusSquared = norm2;
  }
  // The bounds' enclosure of R² (dot-enclosure.ts) from these same sums: no second pass over the data.
  rememberRowSquares(u, n, dim, squares);
  return { n, dim, u, radiusSquared };
}

/** The rows' sums of squares of toLearnerCoordinates (rememberRowSquares keeps only their enclosure). */
const SQUARES = new ScratchArray();

/**
 * The planted hyperplane in the learner's coordinates: ŵ* = (w, b) with a bias, w without (which needs
 * b = 0: a learner through the origin cannot represent an offset). Not normalised; the bounds only use
 * it through ratios that are free of its scale. Null when nothing was planted.
 */
export function plantedSeparator(data: DataSet, bias: boolean): Float64Array | null {
  if (data.planted === null) return null;
  const { w, b } = data.planted;
  if (!bias) {
    if (b !== 0) throw new RangeError(`a learner without bias cannot use a planted offset (b = ${b})`);
    return Float64Array.from(w);
  }
  const separator = new Float64Array(data.d + 1);
  separator.set(w);
  separator[data.d] = b;
  return separator;
}
