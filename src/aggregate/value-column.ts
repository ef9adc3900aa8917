import { closeSync, openSync, readSync, rmSync, writeSync } from "node:fs";

/** Values kept in memory per column before they go to a temporary file. */
export const CHUNK = 1 << 14;

/**
 * A column of numbers appended one at a time, kept in fixed-size Float64Array chunks (no copying as it
 * grows) and, past `spillAfter` values, written to a temporary file chunk by chunk, so that memory stays
 * flat however many values come. `values()` gives them all back, in order, exactly.
 */
export class ValueColumn {
  #chunks: Float64Array[] = [];
  #filled = 0;
  #spilled = 0;
  #fd: number | null = null;

  constructor(
    private readonly spillPath: () => string,
    private readonly spillAfter: number,
  ) {}

  get length(): number {
    return this.#spilled + (this.#chunks.length === 0 ? 0 : (this.#chunks.length - 1) * CHUNK + this.#filled);
  }

  push(value: number): void {
    if (this.#chunks.length === 0 || this.#filled === CHUNK) {
      if (this.#chunks.length * CHUNK >= this.spillAfter) this.#spill();
      this.#chunks.push(new Float64Array(CHUNK));
      this.#filled = 0;
    }
    this.#chunks[this.#chunks.length - 1]![this.#filled++] = value;
  }

  /** Every value, in the order pushed: at the start of `into` when given (long enough), else a new array. */
  values(into?: Float64Array): Float64Array {
    if (into !== undefined && into.length < this.length) throw new RangeError(`${this.length} values do not fit in ${into.length}`);
    const all = into === undefined ? new Float64Array(this.length) : into.subarray(0, this.length);
    if (this.#fd !== null) readSync(this.#fd, all, 0, this.#spilled * 8, 0);
    let offset = this.#spilled;
    this.#chunks.forEach((chunk, k) => {
      const used = k === this.#chunks.length - 1 ? this.#filled : CHUNK;
      all.set(chunk.subarray(0, used), offset);
      offset += used;
    });
    return all;
  }

  /** Frees the memory and removes the temporary file. */
  dispose(): void {
    this.#chunks = [];
    if (this.#fd !== null) {
      closeSync(this.#fd);
      rmSync(this.#path!, { force: true });
      this.#fd = null;
    }
  }

  #path: string | null = null;

  #spill(): void {
    if (this.#fd === null) {
      this.#path = this.spillPath();
      this.#fd = openSync(this.#path, "w+");
    }
    for (const chunk of this.#chunks) {
      writeSync(this.#fd, chunk, 0, chunk.byteLength, this.#spilled * 8);
      this.#spilled += CHUNK;
    }
    this.#chunks = [];
  }
}
