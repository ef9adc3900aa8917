import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { DataSet } from "../src/generators/data-set.js";
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
