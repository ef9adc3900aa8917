/**
 * The exporter threads of the run pool (run-pool.ts): they turn a worker's rows, which it sends as
 * numbers (binary-rows.ts), into the run tables' lines and record checks and the journal's block (deflated,
 * checked: journal-blocks.ts), so that no worker formats text or compresses (docs/architecture.md, "No text
 * on the hot path"). A task is a worker's posted output and the tables to
 * format; the answer the batch's lines and digest (run-digest.ts), in this thread's ring, as the
 * coordinator takes them (BatchOutput).
 */
import { digestBinary } from "../aggregate/run-digest.js";
import { binaryLineViews, type RunTables } from "../export/run-lines.js";
import { tableLayout } from "../run/table-layout.js";
import { journalBlock } from "../export/journal-blocks.js";
import { NO_BYTES, OutputRing, openPosted, type PostedOutput } from "./output-ring.js";

/**
 * A worker's output (its rows as numbers) and the run tables to format; `extraBounds`: the sweep's plug-in
 * bounds (table-layout.ts); `journal`: whether the rows are also made the journal's block (a sweep's folder
 * keeps one: journal-blocks.ts).
 */
export interface ExportTask {
  readonly posted: PostedOutput;
  readonly tables: RunTables;
  readonly journal: boolean;
  readonly extraBounds?: readonly string[];
}

/** This thread's ring, made on its first task (the workers' module re-exports this one; see worker.ts). */
let ring: OutputRing | null = null;

export default function exportBatch({ posted, tables, journal, extraBounds }: ExportTask): PostedOutput {
  ring ??= new OutputRing();
  const opened = openPosted(posted);
  const rows = { count: opened.count, values: opened.parts.rows, texts: opened.texts };
  const layout = tableLayout(extraBounds);
  const lines = binaryLineViews(rows, tables, layout);
  const { count, values, heads, notable } = digestBinary(rows, layout);
  const block = journal ? journalBlock(rows, layout.width) : NO_BYTES;
  // Packed (copied) before the worker's slot is freed: the rows are a view of it.
  // The rows go on too (for runs.parquet: parquet-thread.ts), with the texts their numbers index.
  const output = ring.pack({ values, rows: opened.parts.rows, jsonl: lines.jsonl, csv: lines.csv, journal: block }, { count, heads, notable, texts: opened.texts });
  opened.release();
  return output;
}
