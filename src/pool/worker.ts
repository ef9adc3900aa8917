/**
 * The worker of the run pool. It imports only the pure per-run pipeline and the shared task types (and
 * the test-fault hook, inert unless a test plants faults) and the pure formatter of the run tables' lines:
 * a task is a batch of runs (ranges of a grid point's repeats, expanded here into specs), the answer their
 * rows, in the same order, with their lines.
 */
import { workerData } from "piscina";
import { runLines, type FormattedRows } from "../export/run-lines.js";
import { errorRow, executeRunSafely } from "../run/execute-run.js";
import type { RunRow } from "../run/run-types.js";
import { batchSpecs, type RunBatch } from "../sweep/run-batch.js";
import { injectFault, type TestFaults } from "./test-faults.js";

const faults = (workerData as { faults?: TestFaults } | undefined)?.faults;

export default function runBatch(batch: RunBatch): FormattedRows {
  const rows = batchSpecs(batch).map((spec): RunRow => {
    try {
      injectFault(faults, spec);
    } catch (error) {
      return errorRow(spec, (error as Error).message);
    }
    return executeRunSafely(spec);
  });
  return { rows, lines: runLines(rows) };
}
