import { describe, expect, it } from "vitest";
import { KernelArrays, rowPassKernel, wasmKernelProblem } from "../../src/perceptron/perceptron-wasm.js";
import { splitMixStateOf } from "../../src/random/splitmix64.js";
import { Xoshiro128, xoshiroStateOf } from "../../src/random/xoshiro128.js";
import { ZigguratNormal, zigguratRunsIn } from "../../src/random/ziggurat-normal.js";

/** The first index where `values` differ from `reference`'s next() calls, or −1. */
const firstDifference = (values: Float64Array, reference: ZigguratNormal) => values.findIndex((value) => !Object.is(value, reference.next()));

describe("the ziggurat's fast path in WebAssembly", () => {
  it("runs here, and fills with exactly the draws of the TypeScript reference, misses and all, in any array and chunking", () => {
    expect(wasmKernelProblem()).toBeNull();
    const exports = rowPassKernel()!;
    expect(zigguratRunsIn()).toBe("wasm");
    const arrays = new KernelArrays();
    for (const [seed, state] of [
      [1, xoshiroStateOf(1, "data")],
      [2, splitMixStateOf(2, "init")],
      [3, splitMixStateOf(2 ** 52 + 3, "order")],
    ] as const) {
      // next() is TypeScript alone (ziggurat-normal.ts): the reference the module must match to the bit.
      const filled = new ZigguratNormal(new Xoshiro128(state));
      const reference = new ZigguratNormal(new Xoshiro128(state));
      // An array of JavaScript's (through the module's buffer, 4 096 at a time: lengths across chunks), then one in the module's memory (written where it lies).
      for (const length of [1, 7, 4095, 4096, 4097, 20_000]) {
        const plain = new Float64Array(length + 3);
        filled.fill(plain, 3);
        expect([seed, length, firstDifference(plain.subarray(3), reference)]).toEqual([seed, length, -1]);
      }
      const [inMemory] = arrays.of(exports, [30_000])!;
      expect(inMemory!.buffer).toBe(exports.memory.buffer);
      filled.fill(inMemory!);
      expect([seed, "module memory", firstDifference(inMemory!, reference)]).toEqual([seed, "module memory", -1]);
      // The generator's state after a fill is the reference's after as many draws: the next ones agree.
      expect(filled.next()).toBe(reference.next());
    }
  });
});
