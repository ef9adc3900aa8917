import { describe, expect, it } from "vitest";
import { smallFloat64Array, smallFloat64Copy, smallInt8Array } from "../../src/math/small-arrays.js";

describe("smallFloat64Array and smallInt8Array", () => {
  it("give zeroed arrays of the length asked, each with memory of its own, however many are made", () => {
    const made: (Float64Array | Int8Array)[] = [];
    // Enough to fill several slabs, of lengths below, at and above the sizes made the usual way.
    for (let k = 0; k < 3000; k++) {
      const length = [0, 1, 8, 9, 11, 51, 128, 129, 1000, 2000][k % 10]!;
      const array = k % 3 === 0 ? smallInt8Array(length) : smallFloat64Array(length);
      expect(array.length).toBe(length);
      expect(array.every((value) => value === 0)).toBe(true);
      array.fill(k % 100);
      made.push(array);
    }
    // Writing each array left every other one as it was: no two share a byte.
    made.forEach((array, k) => expect(array.every((value) => value === k % 100)).toBe(true));
    const float64 = made.filter((array): array is Float64Array => array instanceof Float64Array);
    // Float64 views stay aligned; arrays over 64 bytes and up to 1 KiB are views of a shared slab.
    expect(float64.every((array) => array.byteOffset % 8 === 0)).toBe(true);
    expect(smallFloat64Array(11).buffer.byteLength).toBeGreaterThan(88);
    expect(smallFloat64Array(8).buffer.byteLength).toBe(64);
    expect(smallFloat64Array(200).buffer.byteLength).toBe(1600);
  });

  it("copies, into an array of its own, the values given", () => {
    const values = Float64Array.from({ length: 11 }, (_, k) => k - 5.5);
    const copy = smallFloat64Copy(values);
    expect(copy).toEqual(values);
    values.fill(0);
    expect(copy[0]).toBe(-5.5);
    expect(smallFloat64Copy([1, 2])).toEqual(new Float64Array([1, 2]));
  });
});
