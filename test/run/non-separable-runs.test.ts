import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { countErrors } from "../../src/run/analyse-data-set.js";
import { executeRun } from "../../src/run/execute-run.js";
import { generateData } from "../../src/generators/generate-data.js";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createDraws } from "../../src/random/random-draws.js";
import { runSeparators } from "../../src/run/run-separators.js";
import { runSpec } from "../helpers.js";

describe("runs on data that need not be separable", () => {
  it("report the first and last epochs' mistakes, the final and the pocket errors as a run epoch by epoch gives them", () => {
    for (const [noise, order] of [[0.1, "cyclic"], [0.2, "shuffle"], [0.02, "cyclic"]] as const) {
      const spec = runSpec({ n: 60, d: 4, noise, order, maxEpochs: 15, dataVersion: 2 });
      const row = executeRun(spec);
      const learner = toLearnerCoordinates(generateData(spec, createDraws(spec.seed, "data", 2)), true);
      // ŵ after e epochs is what a run capped at e epochs ends with (same ŵ(0), same order stream).
      const after = (epochs: number) =>
        trainPerceptron(learner, { eta: 1, initialWeights: new Float64Array(learner.dim), order, maxEpochs: epochs, random: order === "shuffle" ? createDraws(spec.seed, "order", 2).uniform : undefined });
      const runs = Array.from({ length: row.epochs! }, (_, e) => after(e + 1));
      expect(row.firstEpochMistakes).toBe(runs[0]!.updates);
      const last = runs.at(-1)!;
      expect(row.lastEpochMistakes).toBe(last.updates - (runs.at(-2)?.updates ?? 0));
      expect(row.finalErrors).toBe(countErrors(learner, last.weights));
      expect(row.pocketErrors).toBe(Math.min(...runs.map((run) => countErrors(learner, run.weights))));
      expect(row.converged).toBe(false);
      expect(row.wrongSide).toBeGreaterThan(0);
      expect(row.separable === true).toBe(false);
    }
  });

  it("call planted data with flipped labels not separable when the QP is infeasible, and separable runs converged", () => {
    const noisy = executeRun(runSpec({ n: 200, d: 3, noise: 0.2, maxEpochs: 30, dataVersion: 2 }));
    expect(noisy).toMatchObject({ separable: false, optimalStatus: "infeasible", plantedNovikoffBound: null, violations: 0 });
    const clean = executeRun(runSpec({ n: 200, d: 3, dataVersion: 2 }));
    expect(clean).toMatchObject({ separable: true, converged: true, wrongSide: 0, finalErrors: 0, pocketErrors: 0, lastEpochMistakes: 0 });
  });

  it("write out the separators behind every bound, whose vectors give back the row's margins and bounds", () => {
    for (const init of ["zero", "normal:1"]) {
      const spec = runSpec({ n: 50, d: 3, offset: 0.3, init, dataVersion: 2 });
      const row = executeRun(spec);
      const written = runSeparators(spec, generateData(spec, createDraws(spec.seed, "data", 2)));
      expect(written.updates).toBe(row.updates);
      expect(written.maxMargin!.bounds.hu).toBe(row.optimalHuBound);
      expect(written.planted!.margin).toBe(row.plantedMargin);
      expect(written.tightestHu!.bounds.hu).toBe(row.tightestHuBound);
      expect(written.tightestOptimised!.bounds.optimised).toBe(row.tightestOptimisedBound);
      for (const separator of [written.planted, written.maxMargin, written.tightestHu, written.tightestOptimised]) {
        expect(separator!.margin).toBeGreaterThan(0);
        expect(Math.hypot(...separator!.unit)).toBeCloseTo(1, 12);
        // The vector as computed: its margin and bounds are the written ones, exactly (what an exact check reads).
        const again = computeBounds(toLearnerCoordinates(generateData(spec, createDraws(spec.seed, "data", 2)), spec.bias), Float64Array.from(separator!.vector), spec.eta, Float64Array.from(written.initialWeights));
        expect(again.bounds).toEqual(separator!.bounds);
      }
      if (init === "zero") {
        expect(written.tightestFreundSchapire!.bound).toBe(row.tightestFreundSchapireBound);
        expect(written.plantedFreundSchapire!.bound).toBe(row.plantedFreundSchapireBound);
      } else {
        expect(written.tightestFreundSchapire).toBeNull();
      }
    }
  });
});
