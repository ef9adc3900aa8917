import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import type { DataSet } from "../../src/vocabulary/data-set.js";
import { maxRowSquare } from "../../src/math/dot-enclosure.js";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { wasmKernelProblem } from "../../src/perceptron/perceptron-wasm.js";

/** A data set of n points in d dimensions, values of every scale and sign, labels ±1. */
function randomData(random: () => number, n: number, d: number): DataSet {
  const x = Float64Array.from({ length: n * d }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6));
  const y = Int8Array.from({ length: n }, () => (random() < 0.5 ? -1 : 1));
  return { n, d, x, y, planted: null };
}

describe("toLearnerCoordinates", () => {
  it("makes u_i = y_i·(x_i, 1) and R² = max_i ‖u_i‖² summed in row order, to the bit (in WebAssembly here)", () => {
    expect(wasmKernelProblem()).toBeNull();
    const random = seedrandom("learner-coordinates");
    for (let trial = 0; trial < 300; trial++) {
      // n 0 to 9 (pairs and the odd tail), then larger; d from 1, odd and even; with and without bias.
      const n = trial < 100 ? trial % 10 : 1 + Math.floor(random() * 300);
      const d = 1 + Math.floor(random() * (trial % 4 === 0 ? 70 : 9));
      const bias = trial % 2 === 0;
      const data = randomData(random, n, d);
      const learner = toLearnerCoordinates(data, bias);
      const dim = bias ? d + 1 : d;
      const expected = new Float64Array(n * dim);
      let radiusSquared = 0;
      for (let i = 0; i < n; i++) {
        let square = 0;
        for (let j = 0; j < d; j++) {
          const value = data.y[i]! * data.x[i * d + j]!;
          expected[i * dim + j] = value;
          square += value * value;
        }
        if (bias) {
          expected[i * dim + d] = data.y[i]!;
          square += 1;
        }
        if (square > radiusSquared) radiusSquared = square;
      }
      const context = `trial ${trial}, n ${n}, d ${d}, bias ${bias}`;
      expect({ n: learner.n, dim: learner.dim, radiusSquared: learner.radiusSquared }, context).toEqual({ n, dim, radiusSquared });
      expect(Array.from(learner.u), context).toEqual(Array.from(expected));
      // The enclosure remembered from the same sums holds R² (computed again, independently, on a copy).
      const enclosure = maxRowSquare(learner.u, n, dim);
      const fresh = maxRowSquare(learner.u.slice(), n, dim);
      if (n > 0) expect(enclosure, context).toEqual(fresh);
    }
  });
});
