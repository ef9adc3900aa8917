import { describe, expect, it } from "vitest";
import { kernelMemoryBytes } from "../../src/perceptron/perceptron-wasm.js";
import { estimateRunMemory } from "../../src/run/estimate-run-memory.js";
import { executeRun } from "../../src/run/execute-run.js";
import { runSpec } from "../helpers.js";

describe("estimateRunMemory", () => {
  it("covers what a run's data take in the WebAssembly module, its largest layout (the learner's coordinates)", () => {
    // Larger than any run before it in this thread, so that the module's memory grows to this run's layout.
    const spec = runSpec({ n: 40_000, d: 30, margin: 0.05, maxEpochs: 1, optimal: false, dataVersion: 2 });
    executeRun(spec);
    const { n, d } = spec;
    const dim = d + 1;
    const moduleBytes = kernelMemoryBytes();
    // The module held x and u at once (learner rows), so its memory is at least that, and within the estimate's
    // share for it, 8·n·(d + dim + 2), plus its own data below the first free byte and a 64 KiB page of rounding.
    expect(moduleBytes).toBeGreaterThanOrEqual(8 * n * (d + dim));
    expect(moduleBytes).toBeLessThanOrEqual(8 * n * (d + dim + 2) + 2 * 65536);
    // The JavaScript arrays x and u come on top, with the labels and the order.
    expect(estimateRunMemory(spec)).toBe(8 * n * (d + dim) + 8 * n * (d + dim + 2) + 5 * n);
  });
});
