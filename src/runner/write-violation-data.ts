import { join } from "node:path";
import { dataSetCsv } from "../dataset/data-csv.js";
import { replayCommand } from "../dataset/replay-command.js";
import type { Experiment } from "../experiment/experiment.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { makeFolder } from "../files/checked-fs.js";
import { generateData, type DataSets } from "../generators/generate-data.js";
import { createDraws } from "../random/random-draws.js";
import { type RunRow, type RunSpec } from "../run/run-types.js";
import { pick, RUN_KEYS } from "../vocabulary/point-parameters.js";
import { refuseLinkedSubfolder } from "./linked-paths.js";

export const VIOLATIONS_FOLDER = "violations";
/** The names of the files written there (run-<N>.csv). */
export const VIOLATION_FILE = /^run-\d+\.csv$/;

export interface ViolationRecord {
  readonly run: number;
  readonly seed: number;
  /** The data set, relative to the result folder. */
  readonly data: string;
  readonly replay: string;
}

/** A row's spec back: the row carries every parameter and the seed; the experiment the rest. */
export function specOfRow(row: RunRow, experiment: Experiment): RunSpec {
  return { ...pick(row, RUN_KEYS), maxEpochs: experiment.maxEpochs, optimal: experiment.optimal, bounds: experiment.bounds, dataVersion: experiment.dataVersion };
}

/**
 * Writes the data set of each run that violated a bound to violations/run-<N>.csv in the result folder,
 * regenerated from its seed, so that `fit` can replay it; returns where each went and the command. The
 * command names the file under `finalDir` (merge writes in a staging folder, then moves the files there).
 */
export function writeViolationData(outDir: string, experiment: Experiment, rows: readonly RunRow[], dataSets?: DataSets, finalDir = outDir): ViolationRecord[] {
  if (rows.length === 0) return [];
  refuseLinkedSubfolder(outDir, VIOLATIONS_FOLDER);
  makeFolder(join(outDir, VIOLATIONS_FOLDER));
  return rows.map((row) => {
    const spec = specOfRow(row, experiment);
    const data = join(VIOLATIONS_FOLDER, `run-${row.run}.csv`);
    const path = join(outDir, data);
    const dataSet = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), dataSets);
    writeFileAtomic(path, dataSetCsv(dataSet));
    return { run: row.run, seed: row.seed, data, replay: replayCommand(spec, dataSet, join(finalDir, data)) };
  });
}
