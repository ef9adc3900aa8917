import { rowDotsAndSquares } from "../perceptron/row-passes.js";
import { ScratchArray } from "../math/scratch-array.js";
import { KernelArrays, rowPassKernel } from "../perceptron/perceptron-wasm.js";

/**
 * The row pass of data version 2's planted generator (planted.ts, placeVersion2) over x (n × d, each row a
 * vector z_i of normals): first each row's z_i·w and ‖z_i‖² (`dots`, `squares`), from which the generator
 * works out each row's `bases[i]` and `scales[i]`; then `place()` writes x_i = bases[i]·w + scales[i]·z_i
 * into x, every row.
 *
 * In the WebAssembly module where it loads and the data fit (n 1 000, d 50: the generator 540 → 370 µs a
 * data set; n 100, d 10: 16 → 13 µs; scratch loop, one process), otherwise in TypeScript: the same
 * float64s either way (each sum in the order of its row's components, each x_ij a product, a product and a
 * sum, never fused; test/generators/planted-rows.test.ts compares them). The arrays are this thread's
 * scratch (views of the module's memory, or typed arrays), valid until the next call.
 */
export interface PlantedRows {
  readonly dots: Float64Array;
  readonly squares: Float64Array;
  readonly bases: Float64Array;
  readonly scales: Float64Array;
  place(): void;
}

/** The row pass for x, in WebAssembly unless PERCEPTRON_LAB_KERNEL=typescript or the module cannot take it. */
export function plantedRows(x: Float64Array, n: number, d: number, w: Float64Array): PlantedRows {
  return plantedRowsWasm(x, n, d, w) ?? plantedRowsTypeScript(x, n, d, w);
}

/** The row pass in WebAssembly: x (unless resident) and w copied into the module's memory, x copied back by place(); null where it is not to run (rowPassKernel) or the data do not fit. */
export function plantedRowsWasm(x: Float64Array, n: number, d: number, w: Float64Array): PlantedRows | null {
  const exports = rowPassKernel();
  const arrays = exports === null ? null : ARRAYS.of(exports, [n * d, d, n, n, n, n], [x]);
  if (arrays === null) return null;
  const [rows, weights, dots, squares, bases, scales] = arrays as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  // x resident (executeRun's points) is passed where it lies; otherwise copied in here and back in place().
  if (rows !== x) rows.set(x);
  weights.set(w);
  exports!.rowDotsAndSquares(n, d, rows.byteOffset, weights.byteOffset, dots.byteOffset, squares.byteOffset);
  return {
    dots,
    squares,
    bases,
    scales,
    place: () => {
      exports!.placeRows(n, d, rows.byteOffset, weights.byteOffset, bases.byteOffset, scales.byteOffset);
      if (rows !== x) x.set(rows);
    },
  };
}

/** plantedRowsWasm's arrays in the module's memory. */
const ARRAYS = new KernelArrays();

/** The row pass in TypeScript (the reference; where WebAssembly cannot run). */
export function plantedRowsTypeScript(x: Float64Array, n: number, d: number, w: Float64Array): PlantedRows {
  const dots = DOTS.view(n);
  const squares = SQUARES.view(n);
  const bases = BASES.view(n);
  const scales = SCALES.view(n);
  rowDotsAndSquares(x, n, d, w, dots, squares);
  return {
    dots,
    squares,
    bases,
    scales,
    place: () => {
      for (let i = 0; i < n; i++) {
        const base = bases[i]!;
        const scale = scales[i]!;
        const row = i * d;
        for (let j = 0; j < d; j++) x[row + j] = base * w[j]! + scale * x[row + j]!;
      }
    },
  };
}

/** This thread's scratch of plantedRowsTypeScript. */
const DOTS = new ScratchArray();
const SQUARES = new ScratchArray();
const BASES = new ScratchArray();
const SCALES = new ScratchArray();
