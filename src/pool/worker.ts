/**
 * The worker of the run pool. It imports only the pure per-run pipeline and the shared task types (and
 * the test-fault hook, inert unless a test plants faults) and the pure reductions of its rows (table lines
 * and digest, see BatchOutput): a task is a batch of runs (ranges of a grid point's repeats, expanded here
 * into specs), the answer the output of their rows, in the same order.
 */
import { workerData } from "node:worker_threads";
import { errorRow, executeRunSafely } from "../run/execute-run.js";
import { estimateRunMemory } from "../run/estimate-run-memory.js";
import type { RunRow } from "../run/run-types.js";
import { batchSpecs, type RunBatch } from "../sweep/run-batch.js";
import { digestRows } from "../aggregate/run-digest.js";
import { runLineViews } from "../export/run-lines.js";
import { batchOutput, type BatchOutput } from "./batch-output.js";
import { OutputRing, type RingOutput } from "./output-ring.js";
import { dataSetsOf, type SharedDataSet } from "./shared-data-sets.js";
import { injectFault, type TestFaults } from "./test-faults.js";

// Piscina hands its workerData option to each thread's Worker as it is: read from Node, not from piscina,
// whose import would load the whole pool package into every thread (~20 ms of its start).
const { faults, memoryMb, dataSets: shared, rings } = (workerData as { faults?: TestFaults; memoryMb?: number; dataSets?: SharedDataSet[]; rings?: boolean } | undefined) ?? {};
const dataSets = dataSetsOf(shared);
/**
 * This thread's ring for its outputs (output-ring.ts), in the pool's threads (RunPool sets `rings`); where
 * runBatch is called otherwise (the bench's loop without a pool) it returns plain outputs.
 */
const ring = rings === true ? new OutputRing() : null;

export default function runBatch(batch: RunBatch): BatchOutput | RingOutput {
  const rows = batchSpecs(batch).map((spec): RunRow => {
    try {
      injectFault(faults, spec);
    } catch (error) {
      return errorRow(spec, (error as Error).message);
    }
    // The run's data live outside the heap that the worker's limit caps: they are held to it here, before
    // they are allocated, so that one huge run becomes an error row instead of taking the machine's memory.
    if (memoryMb !== undefined) {
      const needMb = estimateRunMemory(spec) / 2 ** 20;
      if (needMb > memoryMb) return errorRow(spec, `the run's data need about ${Math.ceil(needMb)} MB, more than the worker's memory limit of ${memoryMb} MB (--worker-memory)`);
    }
    return executeRunSafely(spec, dataSets);
  });
  if (ring === null) return batchOutput(rows, { tables: batch.tables });
  return ring.pack(runLineViews(rows, batch.tables), digestRows(rows));
}
