import { rowDotsAndSquares } from "../math/row-dots.js";
import { ScratchArray } from "../math/scratch-array.js";
import { chosenKernel } from "../perceptron/perceptron-kernel.js";
import { kernelMemoryStart, loadKernel, reserveKernelMemory } from "../perceptron/perceptron-wasm.js";

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
  return (chosenKernel() === "wasm" ? plantedRowsWasm(x, n, d, w) : null) ?? plantedRowsTypeScript(x, n, d, w);
}

/** The row pass in WebAssembly: x and w copied into the module's memory, x copied back by place(); null where the module is missing or the data do not fit. */
export function plantedRowsWasm(x: Float64Array, n: number, d: number, w: Float64Array): PlantedRows | null {
  const exports = loadKernel();
  if (exports === null) return null;
  // Layout: x (n·d f64), w (d), dots, squares, bases, scales (n each), from the first free 16-byte boundary.
  const xAt = kernelMemoryStart(exports);
  const wAt = xAt + n * d * 8;
  const dotsAt = wAt + d * 8;
  const squaresAt = dotsAt + n * 8;
  const basesAt = squaresAt + n * 8;
  const scalesAt = basesAt + n * 8;
  if (!reserveKernelMemory(exports.memory, scalesAt + n * 8)) return null;
  const buffer = exports.memory.buffer;
  const rows = new Float64Array(buffer, xAt, n * d);
  rows.set(x);
  new Float64Array(buffer, wAt, d).set(w);
  exports.rowDotsAndSquares(n, d, xAt, wAt, dotsAt, squaresAt);
  return {
    dots: new Float64Array(buffer, dotsAt, n),
    squares: new Float64Array(buffer, squaresAt, n),
    bases: new Float64Array(buffer, basesAt, n),
    scales: new Float64Array(buffer, scalesAt, n),
    place: () => {
      exports.placeRows(n, d, xAt, wAt, basesAt, scalesAt);
      x.set(rows);
    },
  };
}

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
