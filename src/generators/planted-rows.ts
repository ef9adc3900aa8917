import { rowDotsAndSquares } from "../perceptron/row-passes.js";
import { ScratchArray } from "../math/scratch-array.js";

/**
 * The row pass of data version 2's planted generator in TypeScript (planted.ts, placeVersion2, where the
 * data set is not drawn in the WebAssembly module: planted-draw.ts) over x (n × d, each row a vector z_i of
 * normals): first each row's z_i·w and ‖z_i‖² (`dots`, `squares`), from which the generator works out each
 * row's `bases[i]` and `scales[i]`; then `place()` writes x_i = bases[i]·w + scales[i]·z_i into x, every row.
 * Each sum in the order of its row's components, each x_ij a product, a product and a sum, never fused: the
 * module's pass (assembly/planted-rows.ts, inside its planted draw) computes the same float64s. The arrays
 * are this thread's scratch, valid until the next call.
 */
export interface PlantedRows {
  readonly dots: Float64Array;
  readonly squares: Float64Array;
  readonly bases: Float64Array;
  readonly scales: Float64Array;
  place(): void;
}

export function plantedRows(x: Float64Array, n: number, d: number, w: Float64Array): PlantedRows {
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

/** This thread's scratch of plantedRows. */
const DOTS = new ScratchArray();
const SQUARES = new ScratchArray();
const BASES = new ScratchArray();
const SCALES = new ScratchArray();
