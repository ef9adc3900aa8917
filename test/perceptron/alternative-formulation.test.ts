import fc from "fast-check";
import { describe, expect, it } from "vitest";
import type { DataSet } from "../../src/vocabulary/data-set.js";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generateOrthonormal } from "../../src/generators/orthonormal.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { generateThreePoint } from "../../src/generators/three-point.js";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { expectedUpdates } from "../../src/run/expected-updates.js";
import { runSpec } from "../helpers.js";

/**
 * The textbook perceptron, written independently of src/perceptron: raw points x_i and labels y_i,
 * separate weights w and bias b, the test y(w·x + b) <= 0 and the update w += η y x, b += η y.
 * Multiplying by y = ±1 and reordering a sign are exact in floating point, so this must agree with
 * the learner's-coordinates kernel (ŵ·u_i on u_i = y_i x̂_i) to the last bit.
 */
function textbookPerceptron(data: DataSet, bias: boolean, eta: number, w0: readonly number[], maxEpochs: number) {
  const { n, d, x, y } = data;
  const w = w0.slice(0, d);
  let b = bias ? w0[d]! : 0;
  let updates = 0;
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    let mistakes = 0;
    for (let i = 0; i < n; i++) {
      let activation = 0;
      for (let j = 0; j < d; j++) activation += w[j]! * x[i * d + j]!;
      if (bias) activation += b;
      if (y[i]! * activation <= 0) {
        for (let j = 0; j < d; j++) w[j] = w[j]! + eta * (y[i]! * x[i * d + j]!);
        if (bias) b += eta * y[i]!;
        mistakes++;
      }
    }
    updates += mistakes;
    if (mistakes === 0) return { updates, epochs: epoch, weights: bias ? [...w, b] : w };
  }
  return { updates, epochs: maxEpochs, weights: bias ? [...w, b] : w };
}

function kernel(data: DataSet, bias: boolean, eta: number, w0: readonly number[], maxEpochs: number) {
  const result = trainPerceptron(toLearnerCoordinates(data, bias), { eta, initialWeights: Float64Array.from(w0), order: "cyclic", maxEpochs });
  return { updates: result.updates, epochs: result.epochs, weights: Array.from(result.weights) };
}

describe("the kernel against the textbook formulation", () => {
  it("agrees on the structured families", () => {
    const cases: [DataSet, boolean][] = [
      [generateOrthonormal(9, createRandom(1, "data")), false],
      [generateHadamard(16, createRandom(2, "data")), true],
      [generateThreePoint(10), true],
      [generateThreePoint(3.7), true],
    ];
    for (const [data, bias] of cases) {
      const w0 = new Array<number>(bias ? data.d + 1 : data.d).fill(0);
      expect(kernel(data, bias, 1, w0, 1000)).toEqual(textbookPerceptron(data, bias, 1, w0, 1000));
    }
  });

  it("agrees on random planted data, η and ŵ(0), to the bit (property)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 0, max: 2 ** 40 }),
        fc.integer({ min: 1, max: 40 }),
        fc.integer({ min: 1, max: 8 }),
        fc.double({ min: 0.02, max: 0.4, noNaN: true }),
        fc.boolean(),
        fc.double({ min: -3, max: 3, noNaN: true }),
        fc.array(fc.double({ min: -3, max: 3, noNaN: true }), { minLength: 9, maxLength: 9 }),
        (seed, n, d, margin, bias, logEta, init) => {
          const data = generatePlanted({ n, d, margin, radius: 1, offset: bias ? 0.2 : 0 }, createRandom(seed, "data"));
          const w0 = init.slice(0, bias ? d + 1 : d);
          expect(kernel(data, bias, 10 ** logEta, w0, 5000)).toEqual(textbookPerceptron(data, bias, 10 ** logEta, w0, 5000));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe("the three-point family (docs/theory.md): 1 + ⌊c²/2⌋ updates", () => {
  it("holds for dyadic c and η at the ties (c²/2 a whole number)", () => {
    for (const c of [2, 4, 10, 200]) {
      for (const eta of [0.25, 1, 8]) expect(kernel(generateThreePoint(c), true, eta, [0, 0], 100_000).updates).toBe(1 + (c * c) / 2);
    }
  });

  it("holds for random c and η wherever an exact count is expected (property)", () => {
    fc.assert(
      fc.property(fc.double({ min: Math.SQRT2, max: 200, noNaN: true }), fc.double({ min: -3, max: 3, noNaN: true }), (c, logEta) => {
        const eta = 10 ** logEta;
        const expected = expectedUpdates(runSpec({ generator: "three-point", c, n: 3, d: 1, eta }));
        fc.pre(expected !== null);
        expect(kernel(generateThreePoint(c), true, eta, [0, 0], 100_000).updates).toBe(expected);
      }),
      { numRuns: 300 },
    );
  });
});
