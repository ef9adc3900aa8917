import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { tightestSeparators } from "../../src/bounds/tightest-separators.js";
import { learnerOf } from "../helpers.js";

/** Separable 2-D vectors u_i (labels folded in): the unit separators form an arc of the circle. */
const DATA = learnerOf([
  [1, 0.3],
  [0.7, -0.4],
  [0.9, 0.8],
  [0.3, 0.95],
  [0.5, -0.6],
]);

describe("the tightest separators for ŵ(0) ≠ 0 (docs/theory.md, Which ŵ*)", () => {
  it("find Hu's D² and N(v) within a fine grid's minimum over every unit separator (brute force, 2-D)", () => {
    const maxMargin = maxMarginSeparator(DATA).separator!;
    for (const [v0, v1, eta] of [[-3, 1, 1], [2, 5, 0.5], [0.2, -4, 2], [-1, -1, 0.1], [6, -2, 1]] as const) {
      const init = Float64Array.of(v0, v1);
      const found = tightestSeparators(DATA, eta, init, maxMargin, null);
      // A grid over the circle, then a finer one around its best angle (the minimum may sit at a kink, where
      // min_i ŵ·u_i changes its point, and a coarse grid misses it by its step times the slope).
      const minimum = (name: "hu" | "optimised") => {
        const valueAt = (angle: number) => computeBounds(DATA, Float64Array.of(Math.cos(angle), Math.sin(angle)), eta, init).bounds[name] ?? Infinity;
        let best = { angle: 0, value: Infinity };
        for (let k = 0; k < 20_000; k++) {
          const angle = (2 * Math.PI * k) / 20_000;
          const value = valueAt(angle);
          if (value < best.value) best = { angle, value };
        }
        for (let step = (2 * Math.PI) / 20_000; step > 1e-13; step /= 1000) {
          const around = best.angle;
          for (let k = -2000; k <= 2000; k++) {
            const angle = around + (k * step) / 1000;
            const value = valueAt(angle);
            if (value < best.value) best = { angle, value };
          }
        }
        return best.value;
      };
      // Never below the true minimum (every candidate is checked and its bound rounded outward), and within
      // the golden sections' resolution above it.
      for (const name of ["hu", "optimised"] as const) {
        const grid = minimum(name);
        expect(found[name]!.bound).toBeGreaterThanOrEqual(grid * (1 - 1e-12));
        expect(found[name]!.bound).toBeLessThanOrEqual(grid * (1 + 1e-4));
      }
      // Each separator returned separates the data and gives the bound reported.
      expect(computeBounds(DATA, found.hu!.separator, eta, init).bounds.hu).toBe(found.hu!.bound);
      expect(computeBounds(DATA, found.optimised!.separator, eta, init).bounds.optimised).toBe(found.optimised!.bound);
    }
  });
});

describe("the tightest N(v) over separators in three dimensions", () => {
  it("is within 1e-9 of the minimum over a fine scan of the frontier (the local search on N(v) itself stopped 0.3 % above it)", async () => {
    const { alignedSeparator } = await import("../../src/bounds/max-margin-separator.js");
    const { generatePlanted } = await import("../../src/generators/planted.js");
    const { plantedSeparator, toLearnerCoordinates } = await import("../../src/perceptron/learner-coordinates.js");
    const { createRandom } = await import("../../src/random/seeded-random.js");
    // Seed 67 of this family is the one of 150 where the old search stopped 0.32 % above the scan.
    for (const seed of [67, 1, 22]) {
      const data = generatePlanted({ n: 30, d: 2, margin: 0.1, radius: 1, offset: 0.2 }, createRandom(seed, "data"));
      const learner = toLearnerCoordinates(data, true);
      const planted = plantedSeparator(data, true)!;
      const maxMargin = maxMarginSeparator(learner, { separating: planted }).separator!;
      const random = createRandom(seed, "init");
      const init = Float64Array.from({ length: 3 }, () => 6 * (random() - 0.5));
      const found = tightestSeparators(learner, 1, init, maxMargin, planted).optimised!.bound;
      // Every separator of the frontier min ½‖z‖² − s·z·v (z·u_i ≥ 1), log₂ s from −20 to 20 by 0.02: N(v) of each.
      let scanned = Infinity;
      for (let log = -20; log <= 20; log += 0.02) {
        const z = alignedSeparator(learner, init.map((value) => value * 2 ** log), maxMargin);
        const bound = z === null ? null : computeBounds(learner, z, 1, init).bounds.optimised;
        if (bound !== null && bound < scanned) scanned = bound;
      }
      expect(found).toBeLessThanOrEqual(scanned * (1 + 1e-9));
    }
  });
});
