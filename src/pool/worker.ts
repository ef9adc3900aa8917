/**
 * The worker of the run pool. It imports only the pure per-run pipeline and the shared task types (and
 * the test-fault hook, inert unless a test plants faults) and the encoding of its rows as numbers: a task
 * is a batch of runs (ranges of a grid point's repeats, expanded here into specs), the answer their rows as
 * numbers (binary-rows.ts), in the same order. A worker formats no text and reduces nothing for the
 * coordinator: the pool's exporter threads turn its rows into the tables' lines and the digest (exporter.ts),
 * except in a pool without exporters (workerData `format`), where it does so itself, with the same function.
 */
import { workerData } from "node:worker_threads";
import { errorRow, executeRunSafely } from "../run/execute-run.js";
import { estimateRunMemory } from "../run/estimate-run-memory.js";
import type { RunRow } from "../run/run-types.js";
import { batchSpecs, type RunBatch } from "../sweep/run-batch.js";
import { encodeRows } from "../export/binary-rows.js";
import { tableLayout } from "../run/table-layout.js";
import { BOTH_RUN_TABLES } from "../export/run-lines.js";
import exportBatch from "./exporter.js";
import { NO_BYTES, NO_FLOATS, OutputRing, type PostedOutput } from "./output-ring.js";
import { dataSetsOf, type SharedDataSet } from "./shared-data-sets.js";
import { injectFault, type TestFaults } from "./test-faults.js";
import { loadRecordedPlugins } from "../plugins/plugin-file.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";

// Piscina hands its workerData option to each thread's Worker as it is: read from Node, not from piscina,
// whose import would load the whole pool package into every thread (~20 ms of its start).
const { faults, memoryMb, dataSets: shared, rings, format, plugins } = (workerData as { faults?: TestFaults; memoryMb?: number; dataSets?: SharedDataSet[]; rings?: boolean; format?: boolean; plugins?: PluginInfo[] } | undefined) ?? {};
const dataSets = dataSetsOf(shared);
/** The experiment's plug-ins, loaded once (load-plugins.ts); a file that cannot be loaded again, or changed, fails every run with why. */
const pluginError = ((): string | null => {
  try {
    loadRecordedPlugins(plugins ?? []);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
})();
/**
 * This thread's ring for its rows (output-ring.ts), in the pool's threads (RunPool sets `rings`) unless they
 * format their own rows (`format`: the exporter's function packs them into its ring); where runBatch is
 * called otherwise (the bench's loop without a pool) it returns plain outputs.
 */
const ring = rings === true && format !== true ? new OutputRing() : null;

export default function runBatch(batch: RunBatch): PostedOutput {
  const rows = batchSpecs(batch).map((spec): RunRow => {
    if (pluginError !== null) return errorRow(spec, pluginError);
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
  const binary = encodeRows(rows, { owned: ring === null && format !== true, layout: tableLayout(batch.settings.extraBounds) });
  const parts = { values: NO_FLOATS, rows: binary.values, jsonl: NO_BYTES, csv: NO_BYTES, journal: NO_BYTES };
  const head = { count: binary.count, heads: [], notable: [], texts: binary.texts };
  // A pool without exporters (see exporterThreads in run-pool.ts): this thread formats its rows as an exporter would.
  if (format === true) return exportBatch({ posted: { ...head, parts }, tables: batch.tables ?? BOTH_RUN_TABLES, journal: batch.journal ?? true, ...(batch.settings.extraBounds === undefined ? {} : { extraBounds: batch.settings.extraBounds }) });
  return ring === null ? { ...head, parts } : ring.pack(parts, head);
}

/** The exporters' and the parquet thread's tasks, from the same module where the tests bundle it (see thread-module.ts). */
export { exportBatch };
export { default as encodeParquet } from "./parquet-encoder.js";
