import { readFileSync } from "node:fs";
import type { LearnerData } from "./learner-data.js";
import { checkOptions, overflowError, shuffleInPlace, type PerceptronOptions, type PerceptronResult } from "./perceptron.js";
import { ScratchArray, type Float64Allocator } from "../math/scratch-array.js";
import { smallFloat64Copy } from "../math/small-arrays.js";
import { chosenKernel } from "./kernel-choice.js";
import { allFinite } from "../math/array-tests.js";

/**
 * The perceptron of docs/theory.md ("The algorithm") with its epochs run by the WebAssembly SIMD kernel of
 * assembly/perceptron-epoch.ts, built by `npm run build:wasm`. Bit-identical to trainPerceptron (the
 * TypeScript reference): same updates, epochs and weights, since every dot product is summed in the same
 * order (the kernel's comment says how) and the shuffled orders are drawn here by the same code.
 */

/** Where the build writes the kernel: dist/wasm, two folders up from both src/perceptron and dist/perceptron. */
export const WASM_KERNEL_URL = new URL("../../dist/wasm/perceptron-epoch.wasm", import.meta.url);

/** The module's exports: the epochs, the row passes of assembly/row-passes.ts, the planted data set of assembly/planted-draw.ts (with fdlibm's exp and log, exported for the tests). */
export interface KernelExports {
  readonly memory: WebAssembly.Memory;
  heapBase(): number;
  epochPairs(n: number, dim: number, u: number, w: number, order: number, eta: number, counts: number): number;
  epochQuads(n: number, dim: number, u: number, w: number, order: number, eta: number, counts: number): number;
  rowDots(n: number, dim: number, u: number, w: number, out: number, start: number): void;
  rowDotsAndAbsolutes(n: number, dim: number, u: number, w: number, dots: number, absolutes: number): void;
  learnerRows(n: number, d: number, dim: number, x: number, y: number, u: number, squares: number): void;
  plantedDraw(n: number, d: number, gamma: number, radius: number, offset: number, overlap: number, state: number, x: number, w: number, v0: number, y: number, scratch: number): void;
  zigguratTables(): number;
  fdlibmExp(x: number): number;
  fdlibmLog(x: number): number;
}

const PAGE = 65536;
/** WebAssembly's 32-bit memories stop at 4 GiB: larger data sets use the TypeScript kernel. */
const MAX_BYTES = 65536 * PAGE;

let kernel: KernelExports | null | undefined;
let loadError: string | null = null;

/**
 * The module of this thread, instantiated once; null (and loadError says why) when it cannot be. Its memory
 * is a scratch for one call at a time: each user lays out its arrays from the first free byte (the
 * epochs' data here, the row passes' through KernelArrays), after `reserveKernelMemory`, and copies out
 * what it keeps. Below that byte, during a run, may lie the run's resident arrays (ResidentArrays).
 */
function loadKernel(): KernelExports | null {
  if (kernel !== undefined) return kernel;
  try {
    const module = new WebAssembly.Module(readFileSync(WASM_KERNEL_URL));
    kernel = new WebAssembly.Instance(module, {}).exports as unknown as KernelExports;
  } catch (error) {
    kernel = null;
    const reason = (error as NodeJS.ErrnoException).code === "ENOENT" ? "not built (npm run build)" : (error as Error).message;
    loadError = `the WebAssembly kernel ${WASM_KERNEL_URL.pathname} cannot be used: ${reason}`;
  }
  return kernel;
}

/** The module for the planted draw and the row passes (planted-draw.ts, learner-coordinates.ts, row-passes.ts): null where PERCEPTRON_LAB_KERNEL=typescript or it cannot load. */
export function rowPassKernel(): KernelExports | null {
  return chosenKernel() === "wasm" ? loadKernel() : null;
}

/** The bytes of this thread's module memory (0 where it did not load): it grows to a run's largest layout and stays. */
export function kernelMemoryBytes(): number {
  return loadKernel()?.memory.buffer.byteLength ?? 0;
}

/** Null when the WebAssembly kernel loads here, otherwise why not. */
export function wasmKernelProblem(): string | null {
  loadKernel();
  return loadError;
}

/**
 * Trains with the WebAssembly kernel; null when it is not available or the data do not fit its memory,
 * in which case the caller uses the reference (same results, slower).
 */
export function trainPerceptronWasm(data: LearnerData, options: PerceptronOptions): PerceptronResult | null {
  const { n, dim } = data;
  const { eta, order, maxEpochs } = options;
  const random = checkOptions(data, options);
  const exports = loadKernel();
  if (exports === null) return null;

  // u (unless resident already: KernelArrays gives it as itself), ŵ, the epoch's order (n i32, in ⌈n/2⌉
  // doubles' room) and, where asked for, the update counts (n i32 likewise); null where they do not fit, or
  // inside a run's onEpoch (whose epochs' arrays are live).
  const counted = options.counts;
  const lengths = counted === undefined ? [n * dim, dim, Math.ceil(n / 2)] : [n * dim, dim, Math.ceil(n / 2), Math.ceil(n / 2)];
  const arrays = EPOCH_ARRAYS.of(exports, lengths, [data.u]);
  if (arrays === null) return null;
  const [rows, w, orderRoom, countRoom] = arrays as [Float64Array, Float64Array, Float64Array, Float64Array | undefined];
  const counts = countRoom === undefined ? null : new Int32Array(countRoom.buffer, countRoom.byteOffset, n);
  counts?.set(counted!);
  const countsAt = counts === null ? 0 : counts.byteOffset;
  if (rows !== data.u) rows.set(data.u);
  w.set(options.initialWeights);
  const permutation = new Int32Array(orderRoom.buffer, orderRoom.byteOffset, n);
  for (let i = 0; i < n; i++) permutation[i] = i;

  let updates = 0;
  let mistakes = n;
  let first = 0;
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    if (order === "shuffle") shuffleInPlace(permutation, random!);
    // Speculate on 4 points at a time once fewer than 1 in 8 is a mistake, else on 2 (the kernel's note).
    const epochOf = mistakes * 8 < n ? exports.epochQuads : exports.epochPairs;
    mistakes = epochOf(n, dim, rows.byteOffset, w.byteOffset, permutation.byteOffset, eta, countsAt);
    if (mistakes < 0) throw overflowError(updates - mistakes - 1);
    updates += mistakes;
    if (epoch === 1) first = mistakes;
    if (mistakes === 0) {
      // Copied out of the kernel's memory, which the next run overwrites.
      const weights = smallFloat64Copy(w);
      if (!allFinite(weights)) throw overflowError(updates);
      if (counts !== null) counted!.set(counts);
      return { updates, epochs: epoch, converged: true, firstEpochMistakes: first, lastEpochMistakes: 0, weights };
    }
    if (options.onEpoch) {
      // ŵ and the data stay in the memory while the callback runs: what it calls of this module runs in TypeScript.
      epochsLive = true;
      try {
        options.onEpoch(w, epoch);
      } finally {
        epochsLive = false;
      }
    }
  }
  if (counts !== null) counted!.set(counts);
  return { updates, epochs: maxEpochs, converged: false, firstEpochMistakes: first, lastEpochMistakes: mistakes, weights: smallFloat64Copy(w) };
}

/** True while an onEpoch callback runs with the epochs' arrays live in the memory: nothing else may lay out arrays then. */
let epochsLive = false;

/**
 * The first byte past the resident arrays of the run under way (ResidentArrays.during), 0 outside one:
 * calls lay out their arrays past it, and the memory does not grow meanwhile (growing would detach the
 * resident arrays, which the run holds as views).
 */
let residentEnd = 0;

/**
 * True when `array` is one of the resident arrays of the run under way, of `length` values: a call then
 * passes it to the module where it lies instead of copying it in (and out). A view of the memory outside
 * the resident arrays (a call's layout kept past its call) is not: it is copied like any other array.
 */
export function isResident(exports: KernelExports, array: ArrayLike<number>, length: number): array is Float64Array {
  return (
    array instanceof Float64Array &&
    array.length === length &&
    array.buffer === memoryBuffer(exports.memory) &&
    array.byteOffset >= kernelMemoryStart(exports, false) &&
    array.byteOffset + array.byteLength <= residentEnd
  );
}

/**
 * A run's large arrays (executeRun's points and learner coordinates) in the module's memory for the length
 * of the run, so that the row passes and the epochs read and write them where they lie: a heavy run (n
 * 1 000, d 50) copied x or u (400 KB each) into or out of the module nine times, ~9 µs each. Within
 * `during`, each allocator gives its array past the previous one, and the memory, grown first to the
 * run's `bytes`, does not grow: a call whose layout does not fit runs in TypeScript, on the same arrays.
 * Where the module is not to run, or `bytes` do not fit it, or a run is under way already, the allocators
 * give this thread's scratch arrays instead (as before). The arrays are the run's until `during` returns:
 * nothing may keep them past it.
 */
export class ResidentArrays {
  /** The resident views given last, by allocator (given again while their place and length stay). */
  readonly #views: (Float64Array | null)[];
  readonly #resident: Float64Allocator[];
  readonly #scratch: Float64Allocator[];

  constructor(count: number) {
    const fallbacks = Array.from({ length: count }, () => new ScratchArray());
    this.#views = fallbacks.map(() => null);
    this.#scratch = fallbacks.map((fallback) => fallback.view);
    this.#resident = fallbacks.map((fallback, k) => (length: number) => this.#allocate(k, length, fallback));
  }

  /** `body` with one allocator per array; the arrays resident in the module's memory where they can be. */
  during<T>(bytes: number, body: (allocators: readonly Float64Allocator[]) => T): T {
    const exports = rowPassKernel();
    if (exports === null || epochsLive || residentEnd !== 0) return body(this.#scratch);
    const start = kernelMemoryStart(exports);
    if (!reserveKernelMemory(exports.memory, start + bytes)) return body(this.#scratch);
    residentEnd = start;
    try {
      return body(this.#resident);
    } finally {
      residentEnd = 0;
    }
  }

  #allocate(k: number, length: number, fallback: ScratchArray): Float64Array {
    const at = residentEnd;
    const buffer = kernel ? memoryBuffer(kernel.memory) : undefined;
    const end = at + ((length * 8 + 15) & ~15);
    // Outside `during` (an allocator kept past it) or beyond the memory: the scratch array.
    if (at === 0 || buffer === undefined || end > buffer.byteLength) return fallback.view(length);
    residentEnd = end;
    const known = this.#views[k];
    if (known && known.buffer === buffer && known.byteOffset === at && known.length === length) return known;
    const view = new Float64Array(buffer, at, length);
    this.#views[k] = view;
    return view;
  }
}

/**
 * A call site's Float64Arrays in the module's memory, laid out one after another from its first free byte
 * (each 16-byte aligned), the memory grown to hold them: views for a call's inputs and outputs, to be
 * passed by their byteOffset. The views of a recent call (the last LAYOUTS_KEPT shapes: rowDots, say,
 * serves the rows of u and the points x in turn) are given again while the lengths and the memory's buffer
 * are the same (a small run's ~20 new views cost ~1.5 µs and their garbage). Valid until the next call that
 * lays out arrays or grows the memory; null where they do not fit, or while the epochs' arrays are live
 * (inside onEpoch): the caller then runs its TypeScript reference.
 *
 * An array of the call's that is resident (`arrays`, by position: isResident) is given as itself, and
 * nothing is laid out for it: the caller copies in (and out) only where a view is not its own array.
 */
export class KernelArrays {
  /** The recent layouts, the latest first. */
  readonly #layouts: Layout[] = [];

  of(exports: KernelExports, lengths: readonly number[], arrays: readonly (ArrayLike<number> | null)[] = []): Float64Array[] | null {
    if (epochsLive) return null;
    let end = kernelMemoryStart(exports);
    const buffer = memoryBuffer(exports.memory);
    for (const layout of this.#layouts) {
      if (layout.buffer === buffer && layout.start === end && same(lengths, layout.lengths) && sameResident(exports, arrays, layout)) return layout.views;
    }
    const resident = lengths.map((length, k) => (k < arrays.length && isResident(exports, arrays[k]!, length) ? arrays[k]! : null));
    const start = end;
    const offsets = lengths.map((length, k) => {
      if (resident[k] !== null) return -1;
      const at = end;
      end += (length * 8 + 15) & ~15;
      return at;
    });
    if (!reserveKernelMemory(exports.memory, end)) return null;
    const grown = memoryBuffer(exports.memory);
    const views = offsets.map((at, k) => (at < 0 ? (resident[k] as Float64Array) : new Float64Array(grown, at, lengths[k]!)));
    this.#layouts.unshift({ buffer: grown, start, lengths, resident, views });
    if (this.#layouts.length > LAYOUTS_KEPT) this.#layouts.pop();
    return views;
  }
}

/** trainPerceptronWasm's arrays in the module's memory. */
const EPOCH_ARRAYS = new KernelArrays();

/** How many shapes of a call site's arrays KernelArrays keeps the views of. */
const LAYOUTS_KEPT = 4;

/** One layout of KernelArrays: where it was made, for which lengths and resident arrays, and its views. */
interface Layout {
  readonly buffer: ArrayBuffer;
  readonly start: number;
  readonly lengths: readonly number[];
  readonly resident: readonly (ArrayLike<number> | null)[];
  readonly views: Float64Array[];
}

/** Whether `arrays` are resident where the layout's were, and only there (checked without allocating: a small run makes ~6 calls). */
function sameResident(exports: KernelExports, arrays: readonly (ArrayLike<number> | null)[], layout: Layout): boolean {
  for (let k = 0; k < layout.resident.length; k++) {
    const array = k < arrays.length ? arrays[k]! : null;
    const resident = array !== null && isResident(exports, array, layout.lengths[k]!) ? array : null;
    if (resident !== layout.resident[k]) return false;
  }
  return true;
}

function same(a: readonly number[], b: readonly number[]): boolean {
  if (a.length !== b.length) return false;
  for (let k = 0; k < a.length; k++) if (a[k] !== b[k]) return false;
  return true;
}

/**
 * The first byte of the module's memory free for a call's arrays, 16-byte aligned: past the resident
 * arrays of a run under way unless `pastResident` is false.
 */
function kernelMemoryStart(exports: KernelExports, pastResident = true): number {
  if (heapStartOf !== exports) {
    heapStartOf = exports;
    heapStart = (exports.heapBase() + 15) & ~15;
  }
  const start = heapStart;
  return pastResident && residentEnd > start ? residentEnd : start;
}

/** The first free byte of a module's memory (its static data end there), asked of the module once. */
let heapStartOf: KernelExports | null = null;
let heapStart = 0;

/**
 * A memory's buffer, kept from call to call: WebAssembly.Memory's buffer getter costs ~40 ns here, asked
 * about ten times a small run. Growing the memory detaches the buffer kept (its byteLength becomes 0), and
 * the next call takes the new one.
 */
function memoryBuffer(memory: WebAssembly.Memory): ArrayBuffer {
  if (keptBufferOf !== memory || keptBuffer.byteLength === 0) {
    keptBufferOf = memory;
    keptBuffer = memory.buffer;
  }
  return keptBuffer;
}

let keptBufferOf: WebAssembly.Memory | null = null;
let keptBuffer = new ArrayBuffer(0);

/**
 * Grows the memory to at least `bytes` (which must be within WebAssembly's 4 GiB); false when the engine
 * refuses, they are not, or a run's arrays are resident (ResidentArrays). Growing detaches every view of
 * the old buffer: take views after this call.
 */
function reserveKernelMemory(memory: WebAssembly.Memory, bytes: number): boolean {
  if (bytes > MAX_BYTES) return false;
  const missing = Math.ceil((bytes - memoryBuffer(memory).byteLength) / PAGE);
  if (missing <= 0) return true;
  // Not while a run's arrays are resident: growing detaches every view of the old buffer, theirs too.
  if (residentEnd !== 0) return false;
  try {
    memory.grow(missing);
    return true;
  } catch {
    return false;
  }
}
