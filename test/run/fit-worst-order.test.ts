import { describe, expect, it } from "vitest";
import { generateData } from "../../src/generators/generate-data.js";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { createDraws } from "../../src/random/random-draws.js";
import { fitDataSet } from "../../src/run/fit-data-set.js";
import { pointParameters } from "../helpers.js";

const OPTIONS = { bias: true, eta: 1, init: { kind: "zero" }, order: "cyclic", maxEpochs: 10_000, seed: 1 } as const;

describe("fit --worst-order (docs/theory.md, The worst order)", () => {
  it("reports W* with the order that reaches it: presented so, the perceptron makes exactly W* updates", () => {
    const data = generateData(pointParameters({ n: 9, d: 3, margin: 0.1 }), createDraws(5, "data", 3));
    const report = fitDataSet(data, OPTIONS, {});
    expect(report.worstOrder).not.toBeNull();
    const { status, lower, upper, order } = report.worstOrder!;
    expect(status).toBe("exact");
    expect(lower).toBe(upper);
    expect(lower).toBeGreaterThanOrEqual(report.updates);
    expect(lower).toBeLessThanOrEqual(Math.floor(report.bounds!.novikoff!));
    // Replayed on the learner's rows (labels folded in, bias last), as the perceptron presents them.
    const { dim, u } = toLearnerCoordinates(data, true);
    const w = new Float64Array(dim);
    for (const i of order) {
      let dot = 0;
      for (let l = 0; l < dim; l++) dot += w[l]! * u[i * dim + l]!;
      expect(dot).toBeLessThanOrEqual(0);
      for (let l = 0; l < dim; l++) w[l]! += u[i * dim + l]!;
    }
    for (let i = 0; i < data.n; i++) {
      let dot = 0;
      for (let l = 0; l < dim; l++) dot += w[l]! * u[i * dim + l]!;
      expect(dot).toBeGreaterThan(0);
    }
    expect(order).toHaveLength(lower);
    expect(report.violations).toBe(0);
  });

  it("is not searched unless asked, and a budget of 1 gives a bracket", () => {
    const data = generateData(pointParameters({ n: 16, d: 3, margin: 0.05 }), createDraws(6, "data", 3));
    expect(fitDataSet(data, OPTIONS).worstOrder).toBeNull();
    const bracket = fitDataSet(data, OPTIONS, { budget: 1 }).worstOrder!;
    expect(bracket.status).toBe("bracket");
    expect(bracket.lower).toBeLessThan(bracket.upper);
  });
});
