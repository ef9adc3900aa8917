/**
 * The exporter threads of the run pool (run-pool.ts): they turn a worker's rows, which it sends as
 * numbers (binary-rows.ts), into the run tables' lines and record checks, so that no worker formats text
 * (docs/architecture.md, "No text on the hot path"). A task is a worker's posted output and the tables to
 * format; the answer the batch's lines and digest (run-digest.ts), in this thread's ring, as the
 * coordinator takes them (BatchOutput).
 */
import { digestBinary } from "../aggregate/run-digest.js";
import { binaryLineViews, type RunTables } from "../export/run-lines.js";
import { tableLayout } from "../run/table-layout.js";
import { NO_FLOATS, OutputRing, openPosted, type PostedOutput } from "./output-ring.js";

/** A worker's output (its rows as numbers) and the run tables to format; `extraBounds`: the sweep's plug-in bounds (table-layout.ts). */
export interface ExportTask {
  readonly posted: PostedOutput;
  readonly tables: RunTables;
  readonly extraBounds?: readonly string[];
}

/** This thread's ring, made on its first task (the workers' module re-exports this one; see worker.ts). */
let ring: OutputRing | null = null;

export default function exportBatch({ posted, tables, extraBounds }: ExportTask): PostedOutput {
  ring ??= new OutputRing();
  const opened = openPosted(posted);
  const rows = { count: opened.count, values: opened.parts.rows, texts: opened.texts };
  const layout = tableLayout(extraBounds);
  const lines = binaryLineViews(rows, tables, layout);
  const { count, values, heads, notable } = digestBinary(rows, layout);
  // Packed (copied) before the worker's slot is freed: the rows are a view of it.
  const output = ring.pack({ values, rows: NO_FLOATS, jsonl: lines.jsonl, csv: lines.csv }, { count, heads, notable, texts: [] });
  opened.release();
  return output;
}
