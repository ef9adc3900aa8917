import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataSet } from "../src/generators/data-set.js";
import type { RunSpec } from "../src/run/run-types.js";
import { toLearnerCoordinates, type LearnerData } from "../src/perceptron/learner-coordinates.js";

/** A fresh temporary folder. */
export function temporaryFolder(prefix = "perceptron-lab-"): string {
  return mkdtempSync(join(tmpdir(), prefix));
}

/** A data set from rows of features and labels (nothing planted unless given). */
export function dataSetOf(rows: readonly (readonly number[])[], labels: readonly number[], planted: DataSet["planted"] = null): DataSet {
  const d = rows[0]!.length;
  return { n: rows.length, d, x: Float64Array.from(rows.flat()), y: Int8Array.from(labels), planted };
}

/** Learner vectors given directly as the u_i (labels all +1, no bias). */
export function learnerOf(vectors: readonly (readonly number[])[]): LearnerData {
  return toLearnerCoordinates(dataSetOf(vectors, vectors.map(() => 1)), false);
}

/** A planted run spec (n = 50, d = 5, γ = 0.1, R = 1, with bias, η = 1, ŵ(0) = 0, cyclic, max-margin on), overridable. */
export function runSpec(overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    run: 0,
    grid: 0,
    point: 0,
    repeat: 0,
    seed: 12345,
    generator: "planted",
    n: 50,
    d: 5,
    margin: 0.1,
    radius: 1,
    offset: 0,
    c: null,
    bias: true,
    eta: 1,
    init: "zero",
    order: "cyclic",
    maxEpochs: 100_000,
    optimal: true,
    ...overrides,
  };
}

/** Overrides that make a run spec a structured family's: no planted input-space parameters. */
export const STRUCTURED = { margin: null, radius: null, offset: null } as const;
