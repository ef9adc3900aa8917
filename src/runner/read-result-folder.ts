import { findGenerator } from "../generators/generator-registry.js";
import { recordedLayout } from "../run/table-layout.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { statistics } from "../aggregate/statistics.js";
import { summariseRuns } from "../aggregate/summarise-runs.js";
import { A_POSTERIORI_COLUMNS } from "../run/run-columns.js";
import type { SummaryRow } from "../run/summary-types.js";
import { InputError } from "../vocabulary/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import type { RunRow } from "../run/run-types.js";
import type { LineReaderOptions } from "../export/read-lines.js";
import { findManifest, readManifest, recordedParquetOnly, recordedRunsParquet, recordedTables, type Manifest, type RunsManifest } from "./manifest.js";
import { JournalStream } from "./journal-stream.js";
import { ParquetRecordStream, RecordStream, type RunStream } from "./recorded-runs.js";
import { RUNS_PARQUET } from "./write-runs-parquet.js";
import { checkTableDigest, checkTables } from "./table-record.js";

/** A result folder as a script reads it. */
export interface ResultFolder {
  readonly folder: string;
  readonly manifest: Manifest;
  /** One row per grid point (summary.json; for a complete shard's folder, which has none, summarised from its runs). */
  readonly summary: readonly SummaryRow[];
  /** Every run's row, in run order, read lazily: from runs.parquet (checked against its manifest), an unfinished sweep's journal, or a folder before 0.16's runs.jsonl (see runStreamOf). */
  runs(): Generator<RunRow>;
}

/**
 * Opens a result folder written by run, merge or run --shard: its manifest, its summary rows, and its runs
 * as a stream (a folder of 10⁶ runs is read a record at a time). A record that was changed after it was
 * written is refused (an InputError naming file and line), as every command of the tool refuses it.
 */
export function readResultFolder(folder: string): ResultFolder {
  const manifest = readManifest(folder, "readResultFolder needs a result folder written by perceptron-lab run or merge");
  return { folder, manifest, summary: summaryRows(folder, manifest, null), runs: () => recordsOf(folder, manifest) };
}

/**
 * The summary rows of a result folder: summary.json, or, for a complete shard's folder (which has none),
 * summarised from its runs, each point over the shard's runs of it. A summary.json written before p10, p25
 * and p75 existed (perceptron-lab 0.3 and older) is summarised anew from the runs too, so that every row has
 * every statistic its type names; `onNote` hears that it was. `needs` words the error of a folder with
 * neither (null: no summary is an empty list).
 */
export function summaryRows(folder: string, manifest: Manifest, needs: string | null, onNote?: (text: string) => void): SummaryRow[] {
  const summaryPath = join(folder, OUTPUT_FILES.summaryJson);
  if (!existsSync(summaryPath)) {
    if (manifest.shard !== null && manifest.status === "complete") return summariseRuns(recordsOf(folder, manifest), recordedLayout(manifest));
    if (needs === null) return [];
    throw new InputError(`${folder}: no summary.json; ${needs}`);
  }
  // The tables as the complete sweep recorded them (sizes), and this summary's bytes (its SHA-256).
  checkTables(folder, manifest, OUTPUT_FILES.summaryJson);
  const bytes = readFileSync(summaryPath);
  checkTableDigest(folder, manifest, OUTPUT_FILES.summaryJson, bytes);
  let rows: SummaryRow[];
  try {
    rows = JSON.parse(bytes.toString("utf8")) as SummaryRow[];
  } catch {
    throw new InputError(`${summaryPath}: not valid JSON (an unfinished sweep? its manifest says ${manifest.status})`);
  }
  if (rows.length === 0 || (rows[0]!.updates.p25 !== undefined && rows[0]!.mistakes !== undefined)) return withAPosteriori(rows);
  const missing = rows[0]!.updates.p25 === undefined ? "p10, p25 or p75" : "statistics over every run (mistakes, Freund–Schapire)";
  onNote?.(`summary.json has no ${missing} (written by perceptron-lab ${manifest.tool.version}): the summaries were made anew from runs.jsonl.`);
  return summariseRuns(recordsOf(folder, manifest), recordedLayout(manifest));
}

/**
 * Summary rows of a tool before 0.10, which had no a-posteriori columns (nothing of them was computed), with
 * those columns' statistics empty, so that every row has every statistic its type names; newer rows as they are.
 */
function withAPosteriori(rows: SummaryRow[]): SummaryRow[] {
  if (rows[0]!.plantedGainFactor !== undefined) return rows;
  const empty = statistics([]);
  return rows.map((row) => ({ ...row, ...Object.fromEntries(A_POSTERIORI_COLUMNS.map((column) => [column, empty])) }));
}

/**
 * Every run's row of a folder, in run order, each record's check verified. Rows written before 0.5 have
 * no `noise` or `overlap`: a planted run of theirs had neither (0), any other run has no such parameter
 * (null), so that its grid points match a newer folder's in compare and the report. The columns added
 * with them (the epoch mistakes, Freund–Schapire, …) stay absent: not applicable, as null.
 */
export function* recordsOf(folder: string, manifest: Manifest | null = findManifest(folder)): Generator<RunRow> {
  const stream = runStreamOf(folder, manifest);
  for (let row = stream.take(); row !== null; row = stream.take()) yield row.noise === undefined ? withPointDefaults(row) : row;
}

/**
 * A folder's recorded runs, in run order. A folder of 0.16 or later: a complete one's runs.parquet, checked
 * against its manifest; an unfinished one's journal (runs.journal, each block's check verified). Its runs.jsonl
 * and runs.csv are views, never read back. A folder before 0.16: its runs.jsonl (each record's check
 * verified), else, for a complete folder that kept runs.parquet only (run --parquet-only), that file.
 * `options`: how a runs.jsonl is read (see LineReaderOptions).
 */
export function runStreamOf(folder: string, manifest: RunsManifest | null, options: LineReaderOptions = {}): RunStream {
  const jsonl = join(folder, OUTPUT_FILES.runsJsonl);
  const digest = recordedRunsParquet(manifest);
  const complete = digest !== null && manifest?.status === "complete";
  if (recordedTables(manifest) !== null) {
    if (complete) return new ParquetRecordStream(join(folder, RUNS_PARQUET), digest, recordedLayout(manifest));
    const journal = join(folder, OUTPUT_FILES.runsJournal);
    if (existsSync(journal)) return new JournalStream(journal, recordedLayout(manifest));
    throw new InputError(`${folder}: no runs.journal (the record of an unfinished sweep) and no runs.parquet its manifest records: its runs were removed`);
  }
  const parquetOnly = complete && recordedParquetOnly(manifest);
  // A complete --parquet-only folder's runs are its runs.parquet's, checked against the manifest: a runs.jsonl
  // beside it (a kill's leftover before its removal, or another sweep's file put there) is not read (0.12.2 read it).
  if (!parquetOnly && existsSync(jsonl)) return new RecordStream(jsonl, options);
  if (complete) return new ParquetRecordStream(join(folder, RUNS_PARQUET), digest, recordedLayout(manifest));
  throw new InputError(`${folder}: no runs.jsonl${digest === null ? " (nor a runs.parquet its manifest records)" : ""}: not a result folder of this tool, or its runs were removed`);
}

function withPointDefaults(row: RunRow): RunRow {
  // Folders before 0.5 have no noise or overlap: 0 for the generators that have them, null for the others.
  const absent = (findGenerator(row.generator)?.keys.includes("noise") ?? true) ? 0 : null;
  return { ...row, noise: row.noise ?? absent, overlap: row.overlap ?? absent };
}
