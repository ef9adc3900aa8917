import type { RunRow } from "../run/run-types.js";
import { PointSummariser } from "./point-summariser.js";
import { digestRows } from "./run-digest.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import type { SummaryRow } from "../run/summary-types.js";

/** Rows reduced at a time: enough to amortise a digest, few enough to hold. */
const CHUNK = 4096;

/**
 * The summary rows of runs in run order (a grid point's runs consecutive), streamed as a sweep
 * summarises them: for a shard's folder, which has runs but no summary of its own (each summary is then
 * over the shard's runs of that point, which may be some of its repeats). `layout`: the runs' columns (a
 * sweep's plug-in bounds', whose summaries follow the tool's own).
 */
export function summariseRuns(runs: Iterable<RunRow>, layout: TableLayout = BUILT_IN): SummaryRow[] {
  const summariser = new PointSummariser(undefined, layout);
  const summaries: SummaryRow[] = [];
  let chunk: RunRow[] = [];
  try {
    for (const row of runs) {
      chunk.push(row);
      if (chunk.length === CHUNK) {
        summaries.push(...summariser.add(digestRows(chunk, layout)));
        chunk = [];
      }
    }
    if (chunk.length > 0) summaries.push(...summariser.add(digestRows(chunk, layout)));
    const last = summariser.finish();
    if (last !== null) summaries.push(last);
  } finally {
    summariser.spill.dispose();
  }
  return summaries;
}
