import { rowPassKernel, type KernelExports } from "../perceptron/perceptron-wasm.js";
import type { Xoshiro128 } from "./xoshiro128.js";

/**
 * The ziggurat's fast path in the WebAssembly module (assembly/ziggurat.ts): the same draws as fillFast in
 * ziggurat-normal.ts, bit for bit (test/random/ziggurat-wasm.test.ts compares them over every layer and
 * miss), about twice as fast. Where the output lies in the module's memory (a run's resident points) the
 * module writes it there; elsewhere through its static buffer, a chunk at a time, copied out.
 */
export interface ZigguratKernel {
  /**
   * Normals into out[k], k = start, … as fillFast does: returns end, or the index of the first draw that
   * missed its inner rectangle, with its layer and u (`missed`) and the generator's state just after it.
   */
  fill(rng: Xoshiro128, out: Float64Array, start: number, end: number): number;
  readonly missed: { layer: number; u: number };
}

/** Normals a chunk through the module's buffer (its static room: assembly/ziggurat.ts). */
const ZIGGURAT_BUFFER_LENGTH = 4096;

let loaded: ZigguratKernel | null | undefined;

/** This thread's kernel, its tables written once; null where the module is not to run (PERCEPTRON_LAB_KERNEL=typescript) or cannot load. */
export function zigguratKernel(edges: Float64Array, inner: Float64Array): ZigguratKernel | null {
  if (loaded !== undefined) return loaded;
  const exports = rowPassKernel();
  loaded = exports === null ? null : createKernel(exports, edges, inner);
  return loaded;
}

function createKernel(exports: KernelExports, edges: Float64Array, inner: Float64Array): ZigguratKernel {
  const stateAt = exports.zigguratState();
  const tablesAt = exports.zigguratTables();
  const bufferAt = exports.zigguratBuffer();
  // Views of the memory, made again when it grows (growing detaches the old buffer).
  let buffer: ArrayBuffer | null = null;
  let state = new Int32Array(0);
  let missedU = new Float64Array(0);
  let chunk = new Float64Array(0);
  const views = () => {
    if (buffer === exports.memory.buffer) return;
    buffer = exports.memory.buffer;
    state = new Int32Array(buffer, stateAt, 5);
    missedU = new Float64Array(buffer, stateAt + 24, 1);
    chunk = new Float64Array(buffer, bufferAt, ZIGGURAT_BUFFER_LENGTH);
  };
  views();
  new Float64Array(exports.memory.buffer, tablesAt, edges.length + inner.length).set([...edges, ...inner]);
  const missed = { layer: 0, u: 0 };
  return {
    missed,
    fill(rng, out, start, end) {
      views();
      state[0] = rng.s0;
      state[1] = rng.s1;
      state[2] = rng.s2;
      state[3] = rng.s3;
      let k: number;
      if (out.buffer === buffer) {
        // In the module's memory: written where it lies.
        k = (exports.zigguratFill(out.byteOffset, start, end) as number) | 0;
      } else {
        k = start;
        while (k < end) {
          const length = Math.min(ZIGGURAT_BUFFER_LENGTH, end - k);
          const got = exports.zigguratFill(bufferAt, 0, length);
          out.set(got === length ? chunk.subarray(0, length) : chunk.subarray(0, got), k);
          k += got;
          if (got < length) break;
        }
      }
      rng.s0 = state[0]!;
      rng.s1 = state[1]!;
      rng.s2 = state[2]!;
      rng.s3 = state[3]!;
      if (k < end) {
        missed.layer = state[4]!;
        missed.u = missedU[0]!;
      }
      return k;
    },
  };
}
