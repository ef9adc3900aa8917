import { describe, expect, it } from "vitest";
import { rowDots, rowDotsTypeScript } from "../../src/perceptron/row-passes.js";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { isResident, KernelArrays, kernelMemoryBytes, ResidentArrays, rowPassKernel, trainPerceptronWasm, type KernelExports } from "../../src/perceptron/perceptron-wasm.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { createDraws } from "../../src/random/random-draws.js";

function kernel(): KernelExports {
  const exports = rowPassKernel();
  if (exports === null) throw new Error("the WebAssembly module does not load here (npm test builds it first)");
  return exports;
}

function filled(values: Float64Array, seed: number): Float64Array {
  for (let k = 0; k < values.length; k++) values[k] = Math.sin(seed + 7.3 * k) * (k % 3 === 0 ? 1e-3 : 10);
  return values;
}

describe("ResidentArrays", () => {
  it("lays a run's arrays one after another in the module's memory, where the row passes and the epochs read them as they are", () => {
    const exports = kernel();
    const [n, d, dim] = [333, 7, 8];
    const resident = new ResidentArrays(2);
    const bytes = 8 * n * (d + dim) + 8 * (5 * n + 2 * dim) + 128;
    const planted = generatePlanted({ n, d, margin: 0.05, radius: 1, offset: 0.1 }, createDraws(5, "data", 2));
    const expected = toLearnerCoordinates(planted, true);
    const w = filled(new Float64Array(dim), 3);
    const expectedDots = new Float64Array(n);
    rowDotsTypeScript(expected.u, n, dim, w, expectedDots);
    const options = { eta: 1, initialWeights: new Float64Array(dim), order: "cyclic", maxEpochs: 1000 } as const;
    const expectedRun = trainPerceptron(expected, options);

    resident.during(bytes, ([points, learner]) => {
      const x = points!(n * d);
      x.set(planted.x);
      const learnerData = toLearnerCoordinates({ ...planted, x }, true, learner!);
      const { u } = learnerData;
      for (const array of [x, u]) {
        expect(array.buffer).toBe(exports.memory.buffer);
        expect(isResident(exports, array, array.length)).toBe(true);
      }
      expect(u.byteOffset).toBeGreaterThanOrEqual(x.byteOffset + x.byteLength);
      expect(u).toEqual(expected.u);
      // The row pass and the epochs take u where it lies, and leave it as it was.
      const dots = new Float64Array(n);
      rowDots(u, n, dim, w, dots);
      expect(dots).toEqual(expectedDots);
      expect(trainPerceptronWasm(learnerData, options)).toEqual(expectedRun);
      expect(u).toEqual(expected.u);
      expect(x).toEqual(planted.x);
    });
  });

  it("does not grow the memory while a run's arrays are resident: a call that does not fit runs in TypeScript, on the same arrays", () => {
    const exports = kernel();
    const resident = new ResidentArrays(1);
    const [n, dim] = [100, 10];
    resident.during(8 * n * dim, ([allocate]) => {
      const u = filled(allocate!(n * dim), 1);
      expect(isResident(exports, u, n * dim)).toBe(true);
      const inside = kernelMemoryBytes();
      // Rows beyond the memory as it is: laying them out would grow it and detach u.
      const rows = Math.ceil(kernelMemoryBytes() / 8 / dim) + 1;
      const large = filled(new Float64Array(rows * dim), 2);
      const w = filled(new Float64Array(dim), 4);
      const dots = new Float64Array(rows);
      const expectedDots = new Float64Array(rows);
      rowDotsTypeScript(large, rows, dim, w, expectedDots);
      rowDots(large, rows, dim, w, dots);
      expect(dots).toEqual(expectedDots);
      expect(kernelMemoryBytes()).toBe(inside);
      expect(u.length).toBe(n * dim);
      expect(u[7]).toBe(Math.sin(1 + 7.3 * 7) * 10);
    });
    // Once the run is over the memory grows again for a call that needs it.
    const rows = Math.ceil(kernelMemoryBytes() / 8 / dim) + 1;
    rowDots(new Float64Array(rows * dim), rows, dim, new Float64Array(dim), new Float64Array(rows));
    expect(kernelMemoryBytes()).toBeGreaterThan(rows * dim * 8);
  });

  it("gives scratch arrays outside its run, inside another's, and for arrays beyond its bytes; nothing outside the run's arrays is resident", () => {
    const exports = kernel();
    const outer = new ResidentArrays(2);
    const inner = new ResidentArrays(1);
    let kept: ((length: number) => Float64Array) | undefined;
    let first: Float64Array | undefined;
    outer.during(8 * 64, ([a, b]) => {
      first = a!(64);
      expect(isResident(exports, first, 64)).toBe(true);
      // Past the run's bytes: a scratch array, not the module's memory.
      expect(b!(1 << 22).buffer).not.toBe(exports.memory.buffer);
      inner.during(8 * 64, ([c]) => expect(c!(64).buffer).not.toBe(exports.memory.buffer));
      kept = a;
      // A part of the run's arrays is resident; an array of another length than the call's is not, nor
      // the memory past the run's arrays.
      expect(isResident(exports, first.subarray(1), 63)).toBe(true);
      expect(isResident(exports, first, 32)).toBe(false);
      expect(isResident(exports, new Float64Array(exports.memory.buffer, first.byteOffset + first.byteLength, 8), 8)).toBe(false);
    });
    expect(isResident(exports, first!, 64)).toBe(false);
    expect(kept!(64).buffer).not.toBe(exports.memory.buffer);
  });
});

describe("KernelArrays", () => {
  it("gives a recent shape's views again, several shapes in turn, and new ones once the memory has grown", () => {
    const exports = kernel();
    const arrays = new KernelArrays();
    const rows = arrays.of(exports, [30, 3, 10])!;
    const points = arrays.of(exports, [20, 2, 10])!;
    expect(arrays.of(exports, [30, 3, 10])).toBe(rows);
    expect(arrays.of(exports, [20, 2, 10])).toBe(points);
    // Laid out one after another from the same first free byte, each 16-byte aligned.
    expect(rows.map((view) => view.byteOffset - rows[0]!.byteOffset)).toEqual([0, 240, 272]);
    expect(points[0]!.byteOffset).toBe(rows[0]!.byteOffset);
    // Grown (another call site's large layout): the old views are detached, the shape's new ones are not.
    new KernelArrays().of(exports, [kernelMemoryBytes() / 8 + 1]);
    const again = arrays.of(exports, [30, 3, 10])!;
    // (compared as booleans: vitest's messages would read the detached views)
    expect(again === rows).toBe(false);
    expect(rows[0]!.length).toBe(0);
    expect(again.every((view) => view.buffer === exports.memory.buffer && view.length > 0)).toBe(true);
  });
});
