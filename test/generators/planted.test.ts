import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { createRandom } from "../../src/random/seeded-random.js";

const ZERO = (dim: number) => new Float64Array(dim);

function inputSpaceGeometry(data: ReturnType<typeof generatePlanted>) {
  const { n, d, x, y, planted } = data;
  let minDistance = Infinity;
  let maxNorm = 0;
  for (let i = 0; i < n; i++) {
    let dot = planted!.b;
    let norm2 = 0;
    for (let j = 0; j < d; j++) {
      dot += planted!.w[j]! * x[i * d + j]!;
      norm2 += x[i * d + j]! ** 2;
    }
    minDistance = Math.min(minDistance, y[i]! * dot);
    maxNorm = Math.max(maxNorm, Math.sqrt(norm2));
  }
  return { minDistance, maxNorm };
}

describe("generatePlanted", () => {
  it("has margin exactly γ and radius exactly R in the input space (docs/theory.md, support pair)", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 2, max: 60 }),
        fc.integer({ min: 2, max: 40 }),
        fc.double({ min: 0.01, max: 0.6, noNaN: true }),
        fc.double({ min: -0.3, max: 0.3, noNaN: true }),
        fc.integer({ min: 0, max: 1e9 }),
        (n, d, margin, offset, seed) => {
          const data = generatePlanted({ n, d, margin, radius: 1, offset }, createRandom(seed, "data"));
          const { minDistance, maxNorm } = inputSpaceGeometry(data);
          expect(minDistance).toBeCloseTo(margin, 12);
          expect(maxNorm).toBeCloseTo(1, 12);
          expect(maxNorm).toBeLessThanOrEqual(1 + 1e-12);
          expect(new Set(data.y)).toEqual(new Set([1, -1]));
        },
      ),
      { numRuns: 200 },
    );
  });

  it("gives the learner R̂ = √(R² + 1) and γ̂ = γ/√(1 + b²) with a bias, R and γ without", () => {
    const withBias = generatePlanted({ n: 50, d: 5, margin: 0.2, radius: 2, offset: 0.5 }, createRandom(3, "data"));
    const learner = toLearnerCoordinates(withBias, true);
    const { margin } = computeBounds(learner, plantedSeparator(withBias, true)!, 1, ZERO(6));
    expect(Math.sqrt(learner.radiusSquared)).toBeCloseTo(Math.sqrt(5), 12);
    expect(margin).toBeCloseTo(0.2 / Math.sqrt(1.25), 12);

    const throughOrigin = generatePlanted({ n: 50, d: 5, margin: 0.2, radius: 2, offset: 0 }, createRandom(3, "data"));
    const plain = toLearnerCoordinates(throughOrigin, false);
    expect(Math.sqrt(plain.radiusSquared)).toBeCloseTo(2, 12);
    expect(computeBounds(plain, plantedSeparator(throughOrigin, false)!, 1, ZERO(5)).margin).toBeCloseTo(0.2, 12);
  });

  it("places points directly even when γ ≫ R/√d (no rejection sampling)", () => {
    const data = generatePlanted({ n: 200, d: 1000, margin: 0.9, radius: 1, offset: 0 }, createRandom(4, "data"));
    expect(inputSpaceGeometry(data).minDistance).toBeCloseTo(0.9, 12);
  });

  it("keeps the margin in one dimension, where the radius is below R", () => {
    const data = generatePlanted({ n: 30, d: 1, margin: 0.1, radius: 1, offset: 0.2 }, createRandom(5, "data"));
    const { minDistance, maxNorm } = inputSpaceGeometry(data);
    expect(minDistance).toBeCloseTo(0.1, 12);
    expect(maxNorm).toBeLessThanOrEqual(1);
  });

  it("does not present the support pair first", () => {
    // Rows 0 and 1 at distance exactly γ in every data set would make every cyclic run trivial.
    let supportFirst = 0;
    for (let seed = 0; seed < 50; seed++) {
      const data = generatePlanted({ n: 100, d: 3, margin: 0.1, radius: 1, offset: 0 }, createRandom(seed, "data"));
      const distance = (i: number) => {
        let dot = 0;
        for (let j = 0; j < 3; j++) dot += data.planted!.w[j]! * data.x[i * 3 + j]!;
        return data.y[i]! * dot;
      };
      if (Math.abs(distance(0) - 0.1) < 1e-12 && Math.abs(distance(1) - 0.1) < 1e-12) supportFirst++;
    }
    expect(supportFirst).toBe(0);
  });

  it("is a pure function of its seed", () => {
    const params = { n: 20, d: 4, margin: 0.1, radius: 1, offset: 0.1 };
    expect(generatePlanted(params, createRandom(9, "data"))).toEqual(generatePlanted(params, createRandom(9, "data")));
  });
});
