/**
 * Small typed arrays that cost what an array inside V8's heap costs. V8 keeps a typed array of up to 64
 * bytes in its heap; one of 65 bytes or more gets a buffer of its own outside it, and making one took
 * ~0.6 µs here against ~0.07 µs for a view of an existing buffer (scratch, 10⁶ arrays of 11 values). A small
 * run made about seven such arrays (its planted vector, ŵ(0), the separators…). These are views of a
 * shared slab instead: each its own region, zeroed (a slab is new memory, and no region is handed out
 * twice), so they behave as `new Float64Array(length)` would, except that `.buffer` is the slab (read them
 * through their own offset and length, and do not transfer that buffer). A slab is freed once no view of
 * it is left. Arrays of at most 64 bytes, or over SMALL_BYTES, are made as usual.
 */
const SLAB_BYTES = 1 << 14;
const SMALL_BYTES = 1024;

let slab = new ArrayBuffer(SLAB_BYTES);
let used = 0;

/** A fresh region of `bytes` (rounded up to 8, so that float64 views stay aligned): its offset in `slab`. */
function region(bytes: number): number {
  const size = (bytes + 7) & ~7;
  if (used + size > SLAB_BYTES) {
    slab = new ArrayBuffer(SLAB_BYTES);
    used = 0;
  }
  const at = used;
  used += size;
  return at;
}

/** A zeroed Float64Array of `length` values, as `new Float64Array(length)`. */
export function smallFloat64Array(length: number): Float64Array {
  const bytes = length * 8;
  if (bytes <= 64 || bytes > SMALL_BYTES) return new Float64Array(length);
  const at = region(bytes);
  return new Float64Array(slab, at, length);
}

/** A zeroed Int8Array of `length` values, as `new Int8Array(length)`. */
export function smallInt8Array(length: number): Int8Array {
  if (length <= 64 || length > SMALL_BYTES) return new Int8Array(length);
  const at = region(length);
  return new Int8Array(slab, at, length);
}

/** A copy of `values` as a Float64Array made by smallFloat64Array. */
export function smallFloat64Copy(values: ArrayLike<number>): Float64Array {
  const copy = smallFloat64Array(values.length);
  copy.set(values);
  return copy;
}
