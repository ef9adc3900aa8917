import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generateOrthonormal } from "../../src/generators/orthonormal.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { generateThreePoint } from "../../src/generators/three-point.js";
import { toLearnerCoordinates, type LearnerData } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron, type PerceptronOptions, type PerceptronResult } from "../../src/perceptron/perceptron.js";
import { kernelFromEnvironment, runPerceptron } from "../../src/perceptron/perceptron-kernel.js";
import { trainPerceptronWasm, wasmKernelProblem } from "../../src/perceptron/perceptron-wasm.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { rowDots, rowDotsTypeScript } from "../../src/perceptron/row-passes.js";
import { dataSetOf, learnerOf } from "../helpers.js";

/** The outcome of a kernel as data, a thrown error included, weights compared bit for bit. */
function outcome(train: () => PerceptronResult | null): unknown {
  try {
    const result = train();
    if (result === null) return "not run";
    return { ...result, weights: Array.from(result.weights, (v) => (Object.is(v, -0) ? "-0" : String(v))) };
  } catch (error) {
    return { threw: (error as Error).name, message: (error as Error).message };
  }
}

/**
 * Both kernels on the same data and options, with fresh but identical random streams for the order: the
 * same outcome without update counts and with them, and the same counts, which add up to the updates.
 */
function expectIdentical(data: LearnerData, options: Omit<PerceptronOptions, "random">, seed = 1): PerceptronResult {
  const reference = outcome(() => trainPerceptron(data, { ...options, random: createRandom(seed, "order") }));
  const wasm = outcome(() => trainPerceptronWasm(data, { ...options, random: createRandom(seed, "order") }));
  expect(wasm).toEqual(reference);
  const counted = (train: typeof trainPerceptron) => {
    const counts = new Int32Array(data.n);
    return { outcome: outcome(() => train(data, { ...options, random: createRandom(seed, "order"), counts })), counts: Array.from(counts) };
  };
  const [referenceCounted, wasmCounted] = [counted(trainPerceptron), counted((d, o) => trainPerceptronWasm(d, o)!)];
  expect({ outcome: wasmCounted.outcome, counts: wasmCounted.counts }).toEqual(referenceCounted);
  expect(referenceCounted.outcome).toEqual(reference);
  const result = trainPerceptron(data, { ...options, random: createRandom(seed, "order") });
  if (!("threw" in (reference as object))) expect(referenceCounted.counts.reduce((a, b) => a + b, 0)).toBe(result.updates);
  return result;
}

const zero = (dim: number) => new Float64Array(dim);

describe("the WebAssembly kernel", () => {
  it("loads here (npm test builds it first)", () => {
    expect(wasmKernelProblem()).toBeNull();
  });

  it("matches the reference on the structured families, which it must also get exactly right", () => {
    // docs/theory.md, "Generators with exact control": orthonormal and Hadamard make exactly n updates,
    // three-point 1 + ⌊c²/2⌋ (c = 4: 9).
    const orthonormal = toLearnerCoordinates(generateOrthonormal(24, createRandom(3, "data")), false);
    expect(expectIdentical(orthonormal, { eta: 1, initialWeights: zero(24), order: "cyclic", maxEpochs: 100 }).updates).toBe(24);
    const hadamard = toLearnerCoordinates(generateHadamard(64, createRandom(4, "data")), true);
    for (const order of ["cyclic", "shuffle"] as const) {
      expect(expectIdentical(hadamard, { eta: 0.25, initialWeights: zero(64), order, maxEpochs: 100 }).updates).toBe(64);
    }
    const threePoint = toLearnerCoordinates(generateThreePoint(4), true);
    expect(expectIdentical(threePoint, { eta: 1, initialWeights: zero(2), order: "cyclic", maxEpochs: 100 }).updates).toBe(9);
  });

  it("matches the reference on planted data, with both speculation widths, any η, ŵ(0) and order", () => {
    // n = 3001 is odd and not a multiple of 4, so the single-point tail runs too; the first epochs
    // have many mistakes (pairs), the last few (quads).
    const planted = generatePlanted({ n: 3001, d: 37, margin: 0.02, radius: 1, offset: 0.2 }, createRandom(5, "data"));
    const learner = toLearnerCoordinates(planted, true);
    const init = Float64Array.from({ length: 38 }, (_, j) => Math.sin(j) / 3);
    for (const order of ["cyclic", "shuffle"] as const) {
      const result = expectIdentical(learner, { eta: 0.3, initialWeights: init, order, maxEpochs: 10_000 });
      expect(result.converged).toBe(true);
      expect(result.epochs).toBeGreaterThan(3);
    }
    // Cut off before convergence: the state after exactly maxEpochs.
    expect(expectIdentical(learner, { eta: 1, initialWeights: zero(38), order: "cyclic", maxEpochs: 2 }).converged).toBe(false);
  });

  it("matches the reference on random, non-separable and integer data (ties at 0)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 41 }),
        fc.integer({ min: 1, max: 9 }),
        fc.boolean(),
        fc.constantFrom("cyclic", "shuffle"),
        fc.constantFrom(1, 0.5, 0.1, 3),
        fc.integer({ min: 0, max: 2 ** 31 - 1 }),
        (n, d, integers, order, eta, seed) => {
          const random = createRandom(seed, "data");
          const value = () => (integers ? Math.floor(random() * 5) - 2 : random() * 2 - 1);
          const rows = Array.from({ length: n }, () => Array.from({ length: d }, value));
          const labels = rows.map(() => (random() < 0.5 ? 1 : -1));
          const learner = toLearnerCoordinates(dataSetOf(rows, labels), true);
          const init = Float64Array.from({ length: d + 1 }, () => (integers ? 0 : value()));
          expectIdentical(learner, { eta, initialWeights: init, order, maxEpochs: 50 }, seed);
        },
      ),
      { numRuns: 300 },
    );
  });

  it("reports a float64 overflow exactly where the reference does", () => {
    // ∞ − ∞ = NaN in the second pair's dot product; the same error and count as the reference.
    const huge = toLearnerCoordinates(dataSetOf([[1e307, 1e307], [-1e307, 5e306], [3e307, -1e307], [1, 1], [2, 2]], [1, -1, 1, 1, 1]), true);
    const options = { eta: 1, initialWeights: zero(3), order: "cyclic", maxEpochs: 5 } as const;
    const wasm = outcome(() => trainPerceptronWasm(huge, options));
    expect(wasm).toEqual(outcome(() => trainPerceptron(huge, options)));
    expect(wasm).toMatchObject({ threw: "NumericalRangeError", message: expect.stringContaining("float64 overflow after 1 updates") });
    const blowUp = learnerOf([[-1e308]]);
    expect(outcome(() => trainPerceptronWasm(blowUp, { eta: 10, initialWeights: Float64Array.of(1e308), order: "cyclic", maxEpochs: 5 }))).toEqual(
      outcome(() => trainPerceptron(blowUp, { eta: 10, initialWeights: Float64Array.of(1e308), order: "cyclic", maxEpochs: 5 })),
    );
  });

  it("keeps its memory while onEpoch runs: the row passes and a perceptron called from it run in TypeScript, with the same results", () => {
    const learner = toLearnerCoordinates(generatePlanted({ n: 500, d: 20, margin: 0.01, radius: 1, offset: 0.1 }, createRandom(11, "data")), true);
    const other = toLearnerCoordinates(generatePlanted({ n: 300, d: 30, margin: 0.02, radius: 1, offset: 0 }, createRandom(12, "data")), true);
    const probe = Float64Array.from({ length: 31 }, (_, j) => Math.cos(j));
    const expectedDots = new Float64Array(300);
    rowDotsTypeScript(other.u, 300, 31, probe, expectedDots);
    const expectedOther = trainPerceptron(other, { eta: 1, initialWeights: zero(31), order: "cyclic", maxEpochs: 3 });
    const options = { eta: 1, initialWeights: zero(21), order: "cyclic", maxEpochs: 6 } as const;
    let calls = 0;
    const result = trainPerceptronWasm(learner, {
      ...options,
      onEpoch: () => {
        calls++;
        // Each of these would lay out its arrays where the running kernel's data and ŵ are.
        const dots = new Float64Array(300);
        rowDots(other.u, 300, 31, probe, dots);
        expect(dots).toEqual(expectedDots);
        expect(toLearnerCoordinates(generatePlanted({ n: 300, d: 30, margin: 0.02, radius: 1, offset: 0 }, createRandom(12, "data")), true).u).toEqual(other.u);
        expect(runPerceptron(other, { eta: 1, initialWeights: zero(31), order: "cyclic", maxEpochs: 3 })).toEqual(expectedOther);
      },
    });
    expect(calls).toBeGreaterThan(0);
    expect(outcome(() => result)).toEqual(outcome(() => trainPerceptron(learner, options)));
  });

  it("checks its options as the reference does", () => {
    const learner = learnerOf([[1, 2]]);
    expect(() => trainPerceptronWasm(learner, { eta: 1, initialWeights: zero(3), order: "cyclic", maxEpochs: 5 })).toThrow(
      "initial weights have length 3, expected 2",
    );
    expect(() => trainPerceptronWasm(learner, { eta: 1, initialWeights: zero(2), order: "shuffle", maxEpochs: 5 })).toThrow(
      "a shuffled order needs a random stream",
    );
  });
});

describe("runPerceptron and PERCEPTRON_LAB_KERNEL", () => {
  it("takes the kernel from the environment, wasm by default, and refuses other names", () => {
    expect(kernelFromEnvironment({})).toBe("wasm");
    expect(kernelFromEnvironment({ PERCEPTRON_LAB_KERNEL: "typescript" })).toBe("typescript");
    expect(() => kernelFromEnvironment({ PERCEPTRON_LAB_KERNEL: "c" })).toThrow("PERCEPTRON_LAB_KERNEL=c is not a kernel: use wasm or typescript");
  });

  it("gives the same result with either kernel", () => {
    const learner = toLearnerCoordinates(generatePlanted({ n: 200, d: 5, margin: 0.05, radius: 1, offset: 0 }, createRandom(9, "data")), true);
    const options = { eta: 1, initialWeights: zero(6), order: "cyclic", maxEpochs: 1000 } as const;
    expect(runPerceptron(learner, options, "wasm")).toEqual(runPerceptron(learner, options, "typescript"));
  });
});
