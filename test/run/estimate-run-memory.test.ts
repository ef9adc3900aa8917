import { describe, expect, it } from "vitest";
import { kernelMemoryBytes } from "../../src/perceptron/perceptron-wasm.js";
import { estimateRunMemory, residentBytes } from "../../src/run/estimate-run-memory.js";
import { executeRun } from "../../src/run/execute-run.js";
import { runSpec } from "../helpers.js";

describe("estimateRunMemory", () => {
  it("covers what a run's data take in the WebAssembly module: its resident points and vectors, and the largest layout past them", () => {
    // Larger than any run before it in this thread, so that the module's memory grows to this run's layout.
    const spec = runSpec({ n: 40_000, d: 30, margin: 0.05, maxEpochs: 1, optimal: false, dataVersion: 2 });
    executeRun(spec);
    const { n, d } = spec;
    const dim = d + 1;
    const moduleBytes = kernelMemoryBytes();
    // The module held x and u (resident) and the generator's row pass past them (four n-vectors), so its
    // memory is at least that, and within residentBytes, plus its own data below the first free byte and a
    // 64 KiB page of rounding.
    expect(moduleBytes).toBeGreaterThanOrEqual(8 * n * (d + dim + 4));
    expect(residentBytes(spec)).toBe(8 * n * (d + dim) + 8 * (5 * n + 2 * dim) + 128);
    expect(moduleBytes).toBeLessThanOrEqual(residentBytes(spec) + 2 * 65536);
    // The labels and the order come on top; x and u are in the module, not in JavaScript arrays as well.
    expect(estimateRunMemory(spec)).toBe(residentBytes(spec) + 5 * n);
    // Other generators' points are their own array, and copied into the module.
    expect(estimateRunMemory({ ...spec, generator: "orthonormal" })).toBe(residentBytes(spec) + 8 * n * d + 5 * n);
  });
});
