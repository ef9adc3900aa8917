import { closeSync, readSync, rmSync } from "node:fs";
import { writeAll } from "../files/checked-fs.js";

/** The largest chunk, in values (128 KiB). */
export const CHUNK = 1 << 14;
/**
 * The first chunk, in values; each next one is as large as all before it, up to CHUNK. A sweep of many
 * grid points of a few runs each made 26 columns of CHUNK for each point (3.4 MB, zeroed, then collected),
 * which cost its coordinator more than the runs did. Eight values (64 bytes) is what V8 keeps inside its
 * heap, without a buffer of its own to allocate and free (~1 µs each, 26 a point).
 */
const FIRST_CHUNK = 8;

/**
 * A column of numbers appended one at a time, kept in Float64Array chunks (no copying as it grows) and,
 * past `spillAfter` values, written to a temporary file chunk by chunk, so that memory stays flat however
 * many values come. `values()` gives them all back, in order, exactly.
 */
export class ValueColumn {
  #chunks: Float64Array[] = [];
  /** The chunk being filled (the last of #chunks), and how many values it holds. */
  #last: Float64Array | null = null;
  #filled = 0;
  /** Values in the full chunks before #last. */
  #full = 0;
  #spilled = 0;
  #fd: number | null = null;

  constructor(
    /** Creates the spill file (see SpillFolder), open for reading and writing. */
    private readonly spillFile: () => { fd: number; path: string },
    private readonly spillAfter: number,
  ) {}

  get length(): number {
    return this.#spilled + this.#full + this.#filled;
  }

  push(value: number): void {
    if (this.#last === null || this.#filled === this.#last.length) this.#nextChunk();
    this.#last![this.#filled++] = value;
  }

  /**
   * Pushes `count` values read `stride` apart from `values[start]`: the same as pushing them one by one,
   * a chunk's worth at a time (a batch's column of digests, without a call and a chunk check per value).
   */
  pushStrided(values: Float64Array, start: number, stride: number, count: number): void {
    let from = start;
    let left = count;
    while (left > 0) {
      if (this.#last === null || this.#filled === this.#last.length) this.#nextChunk();
      const last = this.#last!;
      const take = Math.min(left, last.length - this.#filled);
      let filled = this.#filled;
      for (let i = 0; i < take; i++, from += stride) last[filled++] = values[from]!;
      this.#filled = filled;
      left -= take;
    }
  }

  /** Every value, in the order pushed: at the start of `into` when given (long enough), else a new array. */
  values(into?: Float64Array): Float64Array {
    if (into !== undefined && into.length < this.length) throw new RangeError(`${this.length} values do not fit in ${into.length}`);
    const all = into === undefined ? new Float64Array(this.length) : into.subarray(0, this.length);
    if (this.#fd !== null) readSync(this.#fd, all, 0, this.#spilled * 8, 0);
    let offset = this.#spilled;
    for (const chunk of this.#chunks) {
      if (chunk === this.#last) {
        // Value by value: a subarray would move a small chunk (kept in V8's heap) out to a buffer of its own.
        for (let i = 0; i < this.#filled; i++) all[offset + i] = chunk[i]!;
      } else {
        all.set(chunk, offset);
        offset += chunk.length;
      }
    }
    return all;
  }

  /** Frees the memory and removes the temporary file. */
  dispose(): void {
    this.#chunks = [];
    this.#last = null;
    this.#filled = 0;
    this.#full = 0;
    if (this.#fd !== null) {
      closeSync(this.#fd);
      rmSync(this.#path!, { force: true });
      this.#fd = null;
    }
  }

  #path: string | null = null;

  /** Starts a chunk when the last is full (or there is none), after spilling the full ones past spillAfter. */
  #nextChunk(): void {
    if (this.#last !== null) this.#full += this.#last.length;
    if (this.#full >= this.spillAfter) this.#spill();
    this.#last = new Float64Array(Math.min(CHUNK, Math.max(FIRST_CHUNK, this.#spilled + this.#full)));
    this.#chunks.push(this.#last);
    this.#filled = 0;
  }

  /** Writes every chunk (all full) to the file, after those written before. */
  #spill(): void {
    if (this.#fd === null) {
      const { fd, path } = this.spillFile();
      this.#fd = fd;
      this.#path = path;
    }
    for (const chunk of this.#chunks) {
      writeAll(this.#fd, this.#path!, new Uint8Array(chunk.buffer, chunk.byteOffset, chunk.byteLength), this.#spilled * 8);
      this.#spilled += chunk.length;
    }
    this.#chunks = [];
    this.#full = 0;
  }
}
