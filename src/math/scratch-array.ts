/**
 * A Float64Array reused from call to call of one function, grown (doubled) as needed: no allocation a
 * call. A typed array of more than 64 bytes lives outside V8's heap, and allocating one cost ~0.5 µs
 * (100 values) to ~2.5 µs (1 000) here, against a small run of ~100 µs that made a dozen of them. Its
 * contents are the caller's until the caller asks again; each caller owns its own (one per thread).
 */
export class ScratchArray {
  private values: Float64Array;

  constructor(initialLength = 256) {
    this.values = new Float64Array(initialLength);
  }

  /** At least `length` values (longer than asked, possibly; never cleared). */
  of(length: number): Float64Array {
    if (this.values.length < length) this.values = new Float64Array(Math.max(length, 2 * this.values.length));
    return this.values;
  }
}
