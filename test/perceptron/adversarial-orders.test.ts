import { describe, expect, it } from "vitest";
import { worstOrder } from "../../src/bounds/worst-order.js";
import { generateData } from "../../src/generators/generate-data.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { runPerceptron } from "../../src/perceptron/perceptron-kernel.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createDraws } from "../../src/random/random-draws.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { executeRun, executeRunSafely } from "../../src/run/execute-run.js";
import { repeatsIdentical } from "../../src/sweep/plan-sweep.js";
import { ADVERSARIAL_ORDERS, ORDERS } from "../../src/vocabulary/point-parameters.js";
import { learnerOf, pointParameters, runSpec } from "../helpers.js";

const BOUND_COLUMNS = ["plantedNovikoffBound", "optimalNovikoffBound", "plantedSnappBound", "optimalSnappBound", "plantedHuBound", "optimalHuBound", "bestBound"] as const;

describe("the adversarial orders (docs/theory.md, Adversarial orders)", () => {
  it("are presentation orders like the others: in the schema's list, each converging on planted data under every bound", () => {
    expect(ORDERS).toEqual(["cyclic", "shuffle", ...ADVERSARIAL_ORDERS]);
    for (const order of ADVERSARIAL_ORDERS) {
      for (const run of [0, 1, 2]) {
        const row = executeRun(runSpec({ run, order, n: 30, d: 4, margin: 0.1 }));
        expect(row.status, `${order} run ${run}: ${row.error}`).toBe("ok");
        expect(row.converged).toBe(true);
        expect(row.finalErrors).toBe(0);
        for (const column of BOUND_COLUMNS) {
          const bound = row[column];
          if (bound !== null) expect(row.updates!, `${order}: ${column}`).toBeLessThanOrEqual(bound);
        }
        // An epoch is n updates.
        expect(row.epochs).toBe(Math.max(1, Math.ceil(row.updates! / 30)));
      }
    }
  });

  it("make no more updates than the worst order, and most-violated makes more than the cyclic order on planted data", () => {
    let cyclicTotal = 0;
    let violatedTotal = 0;
    for (let seed = 0; seed < 10; seed++) {
      const p = pointParameters({ n: 12, d: 3, margin: 0.1 });
      const data = generateData(p, createDraws(seed, "data", 3));
      const learner = toLearnerCoordinates(data, true);
      const w0 = new Float64Array(learner.dim);
      const wStar = worstOrder(learner, { eta: 1, initialWeights: w0, separators: [plantedSeparator(data, true)] })!;
      for (const order of ["cyclic", "most-violated", "most-growth", "random-mistake"] as const) {
        const result = runPerceptron(learner, { eta: 1, initialWeights: w0, order, maxEpochs: 10_000, random: createRandom(seed, "order") });
        expect(result.converged).toBe(true);
        expect(result.updates).toBeLessThanOrEqual(wStar.upper);
        if (order === "cyclic") cyclicTotal += result.updates;
        if (order === "most-violated") violatedTotal += result.updates;
      }
    }
    expect(violatedTotal).toBeGreaterThan(cyclicTotal);
  });

  it("pick by their rule, ties to the lowest index", () => {
    // From ŵ(0) = 0 every point is mistaken (margin 0): most-violated takes point 0; most-growth the longest row.
    const data = learnerOf([[1, 0], [0, 3], [2, 1]]);
    const first = (order: (typeof ADVERSARIAL_ORDERS)[number], progress?: number[]) =>
      runPerceptron(data, { eta: 1, initialWeights: new Float64Array(2), order, maxEpochs: 1, random: () => 0.99, progress, counts: new Int32Array(3) });
    const counted = (order: (typeof ADVERSARIAL_ORDERS)[number], progress?: number[]) => {
      const counts = new Int32Array(3);
      runPerceptron(data, { eta: 1, initialWeights: new Float64Array(2), order, maxEpochs: 1 / 3, random: () => 0.99, progress, counts });
      return Array.from(counts);
    };
    expect(first("most-violated").converged).toBe(true);
    // maxEpochs 1/3: one update allowed (n·maxEpochs = 1): which point it went to.
    expect(counted("most-violated")).toEqual([1, 0, 0]);
    expect(counted("most-growth")).toEqual([0, 1, 0]);
    expect(counted("least-progress", [5, 4, 0.5])).toEqual([0, 0, 1]);
    expect(counted("random-mistake")).toEqual([0, 0, 1]);
  });

  it("random-mistake draws from the order stream: reproducible by seed, different across seeds; the others draw nothing", () => {
    const rows = [0, 0, 1, 2, 3].map((seed) => executeRun(runSpec({ run: 0, seed, order: "random-mistake", n: 40, d: 5, margin: 0.05 })));
    expect(rows[0]).toEqual(rows[1]);
    expect(new Set(rows.map((row) => row.updates)).size).toBeGreaterThan(1);
    expect(repeatsIdentical(pointParameters({ generator: "three-point", order: "most-violated" }))).toBe(true);
    expect(repeatsIdentical(pointParameters({ generator: "three-point", order: "random-mistake" }))).toBe(false);
  });

  it("are refused by the cyclic kernel, and least-progress without a separator is an error row that says why", () => {
    const data = learnerOf([[1, 0]]);
    expect(() => trainPerceptron(data, { eta: 1, initialWeights: new Float64Array(2), order: "most-violated", maxEpochs: 1 })).toThrow(/runPerceptron/);
    const row = executeRunSafely(runSpec({ order: "least-progress", noise: 0.3, optimal: false }));
    expect(row.status).toBe("error");
    expect(row.error).toMatch(/least-progress order needs a separator/);
  });
});
