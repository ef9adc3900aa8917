/**
 * The worker of the run pool. It imports only the pure per-run pipeline and the shared task types (and
 * the test-fault hook, inert unless a test plants faults) and the pure reductions of its rows (table lines
 * and digest, see BatchOutput): a task is a batch of runs (ranges of a grid point's repeats, expanded here
 * into specs), the answer the output of their rows, in the same order.
 */
import { workerData } from "node:worker_threads";
import { errorRow, executeRunSafely } from "../run/execute-run.js";
import type { RunRow } from "../run/run-types.js";
import { batchSpecs, type RunBatch } from "../sweep/run-batch.js";
import { batchOutput, type BatchOutput } from "./batch-output.js";
import { injectFault, type TestFaults } from "./test-faults.js";

// Piscina hands its workerData option to each thread's Worker as it is: read from Node, not from piscina,
// whose import would load the whole pool package into every thread (~20 ms of its start).
const faults = (workerData as { faults?: TestFaults } | undefined)?.faults;

export default function runBatch(batch: RunBatch): BatchOutput {
  const rows = batchSpecs(batch).map((spec): RunRow => {
    try {
      injectFault(faults, spec);
    } catch (error) {
      return errorRow(spec, (error as Error).message);
    }
    return executeRunSafely(spec);
  });
  return batchOutput(rows);
}
