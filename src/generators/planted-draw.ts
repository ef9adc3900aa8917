import { KernelArrays, rowPassKernel, type KernelExports } from "../perceptron/perceptron-wasm.js";
import { smallFloat64Copy, smallInt8Array } from "../math/small-arrays.js";
import type { Xoshiro128 } from "../random/xoshiro128.js";
import { ZIGGURAT_TABLES } from "../random/ziggurat-normal.js";

/**
 * Data versions 2 and 3's planted data set in the WebAssembly module (assembly/planted-draw.ts): the
 * normals, the support pair, every row's label, distance and point, in one call, bit-identical to
 * placeVersion2 in TypeScript (planted.ts), which stays the reference and runs where the module does not
 * (PERCEPTRON_LAB_KERNEL=typescript, a module that does not load, data that do not fit, d = 1).
 * A small run's data set (n 100, d 10) took 14.6 µs in TypeScript and takes 11.1 here (one thread, warm, 20 000 data
 * sets); `npm run bench -- --only stages` says data 19.2 → 13.0 µs, heavy runs 458 → 407 (docs/benchmarks.md).
 *
 * The generator's state goes into the module and comes back after the last draw, so that the draws that
 * follow (label noise) go on from it as they do after the TypeScript placement.
 */
export interface PlantedDraw {
  readonly w: Float64Array;
  readonly y: Int8Array;
}

/** The placement of x (n × d, written in full) and its w and y; null where the module is not to run or the data do not fit. */
export function plantedDrawWasm(
  generator: Xoshiro128,
  x: Float64Array,
  n: number,
  d: number,
  gamma: number,
  radius: number,
  offset: number,
  overlap: number,
): PlantedDraw | null {
  if (d < 2 || n < 2) return null;
  const exports = rowPassKernel();
  if (exports === null) return null;
  // The state (2 f64 of room for 4 u32), x (unless resident), w, v0, y (n i8 in ⌈n/8⌉ f64) and 4n f64 of scratch.
  const arrays = ARRAYS.of(exports, [2, n * d, d, d, Math.ceil(n / 8), 4 * n], [null, x]);
  if (arrays === null) return null;
  writeTables(exports);
  const [stateRoom, rows, w, v0, yRoom, scratch] = arrays as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
  const state = STATE.view(stateRoom, 4);
  state[0] = generator.s0;
  state[1] = generator.s1;
  state[2] = generator.s2;
  state[3] = generator.s3;
  exports.plantedDraw(n, d, gamma, radius, offset, overlap, state.byteOffset, rows.byteOffset, w.byteOffset, v0.byteOffset, yRoom.byteOffset, scratch.byteOffset);
  generator.s0 = state[0]! | 0;
  generator.s1 = state[1]! | 0;
  generator.s2 = state[2]! | 0;
  generator.s3 = state[3]! | 0;
  if (rows !== x) x.set(rows);
  const y = smallInt8Array(n);
  y.set(LABELS.view(yRoom, n));
  return { w: smallFloat64Copy(w), y };
}

/** A view of another type over a layout's array, made again only when that array or the length is another (a new layout or memory). */
class Reinterpreted<T extends Uint32Array | Int8Array> {
  #of: Float64Array | null = null;
  #view: T | null = null;
  constructor(private readonly make: (buffer: ArrayBuffer, byteOffset: number, length: number) => T) {}

  view(of: Float64Array, length: number): T {
    if (this.#of !== of || this.#view!.length !== length) {
      this.#of = of;
      this.#view = this.make(of.buffer as ArrayBuffer, of.byteOffset, length);
    }
    return this.#view!;
  }
}

/** The generator's state as four u32, and the labels as n i8, over their layout's arrays. */
const STATE = new Reinterpreted((buffer, at, length) => new Uint32Array(buffer, at, length));
const LABELS = new Reinterpreted((buffer, at, length) => new Int8Array(buffer, at, length));

/** plantedDrawWasm's arrays in the module's memory. */
const ARRAYS = new KernelArrays();

/** The module whose static tables hold the ziggurat's layers (written once per module: one per thread). */
let tablesWritten: KernelExports | null = null;

function writeTables(exports: KernelExports): void {
  if (tablesWritten === exports) return;
  let at = exports.zigguratTables();
  for (const table of ZIGGURAT_TABLES) {
    new Float64Array(exports.memory.buffer, at, table.length).set(table);
    at += table.length * 8;
  }
  tablesWritten = exports;
}
