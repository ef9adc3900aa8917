import { describe, expect, it } from "vitest";
import { computeBounds, computeBoundsWithDots } from "../../src/bounds/convergence-bounds.js";
import { freundSchapireAlong, freundSchapireBound } from "../../src/bounds/freund-schapire.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { rowDots } from "../../src/perceptron/row-passes.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { createDraws } from "../../src/random/random-draws.js";
import { generateHadamard } from "../../src/generators/hadamard.js";

/** Planted data sets of several shapes, and the Hadamard family (every row ties for the margin). */
function cases() {
  const planted = [
    { n: 100, d: 10, margin: 0.1, offset: 0 },
    { n: 257, d: 3, margin: 0.02, offset: 0.3 },
    { n: 1000, d: 50, margin: 0.05, offset: -0.2 },
  ].map((shape, k) => {
    const data = generatePlanted({ ...shape, radius: 1 }, createDraws(40 + k, "data", 2));
    return { learner: toLearnerCoordinates(data, true), separator: plantedSeparator(data, true)! };
  });
  const hadamard = generateHadamard(16, createDraws(3, "data", 2));
  return [...planted, { learner: toLearnerCoordinates(hadamard, false), separator: plantedSeparator(hadamard, false)! }];
}

describe("the separator's dots given by the caller (analyseDataSet shares one pass between the margin and the Freund–Schapire search)", () => {
  it("give the same margin, bounds and Freund–Schapire bound, to the bit, as the functions' own pass", () => {
    for (const { learner, separator } of cases()) {
      const dots = new Float64Array(learner.n);
      rowDots(learner.u, learner.n, learner.dim, separator, dots);
      for (const init of [new Float64Array(learner.dim), Float64Array.from({ length: learner.dim }, (_, j) => Math.cos(j))]) {
        expect(computeBoundsWithDots(learner, separator, 0.5, init, dots)).toEqual(computeBounds(learner, separator, 0.5, init));
      }
      for (const epochs of [1, 7]) expect(freundSchapireAlong(learner, separator, epochs, dots)).toEqual(freundSchapireAlong(learner, separator, epochs));
    }
  });

  it("leave the Freund–Schapire bound a true bound when they are wrong: it is evaluated at its w from the data", () => {
    for (const { learner, separator } of cases()) {
      const wrong = Float64Array.from({ length: learner.n }, (_, i) => (i % 3) - 0.5);
      const { bound, w } = freundSchapireAlong(learner, separator, 3, wrong);
      expect(bound).toBe(freundSchapireBound(learner, w, 3));
      expect(bound).toBeGreaterThanOrEqual(freundSchapireAlong(learner, separator, 3).bound);
    }
  });
});
