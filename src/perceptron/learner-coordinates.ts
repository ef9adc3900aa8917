import type { DataSet } from "../vocabulary/data-set.js";
import { rememberRowSquares } from "../math/dot-enclosure.js";
import { newFloat64Array, ScratchArray, type Float64Allocator } from "../math/scratch-array.js";
import { smallFloat64Array, smallFloat64Copy } from "../math/small-arrays.js";
import { KernelArrays, rowPassKernel } from "./perceptron-wasm.js";
import type { LearnerData } from "./learner-data.js";

export type { LearnerData } from "./learner-data.js";

/** The learner's coordinates of `data`; u is written, every value of it, into `allocate(n·dim)`. */
export function toLearnerCoordinates(data: DataSet, bias: boolean, allocate: Float64Allocator = newFloat64Array): LearnerData {
  const { n, d } = data;
  const dim = bias ? d + 1 : d;
  const u = allocate(n * dim);
  const squares = learnerRowsWasm(data, dim, u) ?? learnerRowsTypeScript(data, dim, u);
  // The largest ‖u_i‖², compared in row order as the rows were made.
  let radiusSquared = 0;
  for (let i = 0; i < n; i++) if (squares[i]! > radiusSquared) radiusSquared = squares[i]!;
  // The bounds' enclosure of R² (dot-enclosure.ts) from these same sums: no second pass over the data.
  rememberRowSquares(u, n, dim, squares);
  return { n, dim, u, radiusSquared };
}

/**
 * u_i = y_i·(x_i, 1) with a bias, y_i·x_i without, written into u, and each ‖u_i‖² summed in the order of
 * its components (the bias's 1 last), in the WebAssembly module (x, y copied in, u and the sums copied
 * out, x and u only where they are not resident: n 1 000, d 50 in ~25 µs against ~90); null where it is
 * not to run or cannot, and learnerRowsTypeScript makes the same float64s.
 */
function learnerRowsWasm({ n, d, x, y }: DataSet, dim: number, u: Float64Array): Float64Array | null {
  const exports = rowPassKernel();
  const arrays = exports === null ? null : ARRAYS.of(exports, [n * d, n, n * dim, n], [x, null, u]);
  if (arrays === null) return null;
  const [points, labels, rows, sums] = arrays as [Float64Array, Float64Array, Float64Array, Float64Array];
  // x and u resident (executeRun's) are read and written where they lie.
  if (points !== x) points.set(x);
  labels.set(y);
  exports!.learnerRows(n, d, dim, points.byteOffset, labels.byteOffset, rows.byteOffset, sums.byteOffset);
  if (rows !== u) u.set(rows);
  const squares = SQUARES.of(n);
  squares.set(sums);
  return squares;
}

/** learnerRowsWasm's arrays in the module's memory. */
const ARRAYS = new KernelArrays();

/** learnerRowsWasm's rows and sums in TypeScript (the reference; where WebAssembly cannot run). */
function learnerRowsTypeScript({ n, d, x, y }: DataSet, dim: number, u: Float64Array): Float64Array {
  const bias = dim > d;
  const squares = SQUARES.of(n);
  // Two rows at a time: each row's ‖u_i‖² is a chain of additions in the order of its components, and two
  // chains in flight keep the adder busier than one (see rowDots); the same sums as a row at a time.
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const label0 = y[i]!;
    const label1 = y[i + 1]!;
    const x0 = i * d;
    const x1 = x0 + d;
    const u0 = i * dim;
    const u1 = u0 + dim;
    let norm0 = 0;
    let norm1 = 0;
    for (let j = 0; j < d; j++) {
      const value0 = label0 * x[x0 + j]!;
      const value1 = label1 * x[x1 + j]!;
      u[u0 + j] = value0;
      u[u1 + j] = value1;
      norm0 += value0 * value0;
      norm1 += value1 * value1;
    }
    if (bias) {
      u[u0 + d] = label0;
      u[u1 + d] = label1;
      norm0 += 1;
      norm1 += 1;
    }
    squares[i] = norm0;
    squares[i + 1] = norm1;
  }
  for (; i < n; i++) {
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
  }
  return squares;
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
    return smallFloat64Copy(w);
  }
  const separator = smallFloat64Array(data.d + 1);
  separator.set(w);
  separator[data.d] = b;
  return separator;
}
