import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generateOrthonormal } from "../../src/generators/orthonormal.js";
import { generateThreePoint } from "../../src/generators/three-point.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createRandom } from "../../src/random/seeded-random.js";

function runFamily(data: ReturnType<typeof generateOrthonormal>, bias: boolean, order: "cyclic" | "shuffle" = "cyclic", eta = 1) {
  const learner = toLearnerCoordinates(data, bias);
  const zero = new Float64Array(learner.dim);
  const result = trainPerceptron(learner, { eta, initialWeights: zero, order, maxEpochs: 1000, random: createRandom(1, "order") });
  const { bounds, margin } = computeBounds(learner, plantedSeparator(data, bias)!, eta, zero);
  return { result, bounds, margin, learner };
}

describe("orthonormal family (docs/theory.md): exactly n updates, (R/γ)² = n", () => {
  for (const n of [1, 2, 3, 7, 16, 50]) {
    it(`n = ${n}`, () => {
      for (const order of ["cyclic", "shuffle"] as const) {
        const { result, bounds } = runFamily(generateOrthonormal(n, createRandom(n, "data")), false, order, 0.3);
        expect(result).toMatchObject({ updates: n, epochs: 2, converged: true });
        // Exact, not n(1 ± ε): the bounds are computed without square roots.
        expect(bounds.novikoff).toBe(n);
        expect(bounds.snapp).toBe(n);
        expect(bounds.optimised).toBe(n);
        expect(result.updates / bounds.best!).toBe(1);
      }
    });
  }
});

describe("hadamard family (docs/theory.md): exactly n updates, R² = n, γ = 1", () => {
  for (const n of [1, 2, 4, 8, 32, 128]) {
    it(`n = ${n}`, () => {
      for (const order of ["cyclic", "shuffle"] as const) {
        const { result, bounds, margin, learner } = runFamily(generateHadamard(n, createRandom(n, "data")), true, order);
        expect(learner.radiusSquared).toBe(n);
        expect(margin).toBe(1);
        expect(result).toMatchObject({ updates: n, epochs: n === 1 ? 2 : 2, converged: true });
        expect(bounds.novikoff).toBe(n);
        expect(result.updates / bounds.novikoff!).toBe(1);
      }
    });
  }

  it("has orthogonal augmented rows, so every first-pass dot product is a tie at exactly 0", () => {
    const learner = toLearnerCoordinates(generateHadamard(16, createRandom(1, "data")), true);
    for (let i = 0; i < 16; i++) {
      for (let k = 0; k < i; k++) {
        let dot = 0;
        for (let j = 0; j < 16; j++) dot += learner.u[i * 16 + j]! * learner.u[k * 16 + j]!;
        expect(dot).toBe(0);
      }
    }
  });

  it("rejects an order that is not a power of 2", () => {
    expect(() => generateHadamard(6, createRandom(1, "data"))).toThrow("hadamard needs n a power of 2 (got 6)");
  });
});

describe("three-point family (docs/theory.md): 1 + ⌊c²/2⌋ updates against (R/γ)² = 1 + c²", () => {
  it("c = 10: 51 updates in 26 epochs", () => {
    const { result, bounds } = runFamily(generateThreePoint(10), true);
    expect(result).toMatchObject({ updates: 51, epochs: 26, converged: true });
    expect(bounds.novikoff).toBe(101);
  });

  for (const c of [Math.SQRT2 + 1e-9, 2, 3, 4.5, 7, 20]) {
    it(`c = ${c}`, () => {
      const { result, bounds } = runFamily(generateThreePoint(c), true);
      expect(result.updates).toBe(1 + Math.floor((c * c) / 2));
      expect(bounds.novikoff).toBeCloseTo(1 + c * c, 9);
    });
  }
});
