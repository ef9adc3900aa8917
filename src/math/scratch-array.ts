/** Where a function takes a Float64Array it fills and returns: a new one by default, a reused one on the run path. */
export type Float64Allocator = (length: number) => Float64Array;

/** A new, zeroed Float64Array of `length` values. */
export const newFloat64Array: Float64Allocator = (length) => new Float64Array(length);

/**
 * A Float64Array reused from call to call, grown (doubled) as needed: no allocation a call. A typed array
 * of more than 64 bytes lives outside V8's heap, and allocating one cost ~0.5 µs (100 values) to ~2.5 µs
 * (1 000) here, against a small run of ~100 µs that made a dozen of them. Its contents are the caller's
 * until the caller asks again, and never cleared; each caller owns its own (one per thread).
 */
export class ScratchArray {
  #values: Float64Array;
  #view: Float64Array = new Float64Array(0);

  constructor(initialLength = 256) {
    this.#values = new Float64Array(initialLength);
  }

  /** At least `length` values (possibly more). */
  of(length: number): Float64Array {
    if (this.#values.length < length) this.#values = new Float64Array(Math.max(length, 2 * this.#values.length));
    return this.#values;
  }

  /**
   * Exactly `length` values, the first of the scratch (a view of them: the same object while the length
   * stays). Bound to this scratch, so that it serves as a Float64Allocator as it is.
   */
  readonly view: Float64Allocator = (length) => {
    const values = this.of(length);
    if (values.length === length) return values;
    if (this.#view.length !== length || this.#view.buffer !== values.buffer) this.#view = values.subarray(0, length);
    return this.#view;
  };
}
