import { join } from "node:path";
import type { SummaryRow } from "../run/summary-types.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { LineFile } from "./line-file.js";
import { journalHeader } from "./journal-blocks.js";
import type { RunTables } from "./run-lines.js";
import { runsCsvHeader } from "./runs-csv.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { summaryCsvHeader, summaryCsvLine } from "./summary-csv.js";
import { summaryJsonEnd, summaryJsonItem } from "./summary-json.js";

export const OUTPUT_FILES = {
  runsJsonl: "runs.jsonl",
  runsCsv: "runs.csv",
  runsJournal: "runs.journal",
  summaryJson: "summary.json",
  summaryCsv: "summary.csv",
  manifest: "manifest.json",
} as const;

/** The four tables of a whole sweep (a shard's folder has the two run tables only). */
export const TABLE_FILES = [OUTPUT_FILES.runsCsv, OUTPUT_FILES.runsJsonl, OUTPUT_FILES.summaryCsv, OUTPUT_FILES.summaryJson] as const;

/** The one owner of a result folder's I/O; the exporters it calls are pure. */
export class ResultWriter {
  readonly #runsJsonl: LineFile | null;
  readonly #runsCsv: LineFile | null;
  readonly #journal: LineFile | null;
  readonly #summaryJson: LineFile | null;
  readonly #summaryCsv: LineFile | null;
  /** Summary rows written so far; null when this folder has no summaries. */
  #summaries: number | null;
  readonly layout: TableLayout;

  /**
   * Creates (truncates) the tables in an existing folder. `summaries: false` writes no summary files (a
   * shard's grid points may be split with other shards). Write the manifest first (writeManifest): a kill
   * between the two then leaves a folder that a plain --resume continues. `runsCsv: false` writes no
   * runs.csv, `runsJsonl: false` no runs.jsonl (the text tables are views: `--tables`). `journal: true`
   * keeps the sweep's journal, runs.journal (journal-blocks.ts), the record a resume reads; a merge keeps
   * none. `layout`: the run tables' columns (a sweep's plug-in bounds', table-layout.ts).
   */
  constructor(
    readonly outDir: string,
    options: { readonly summaries?: boolean; readonly runsCsv?: boolean; readonly runsJsonl?: boolean; readonly journal?: boolean; readonly layout?: TableLayout } = {},
  ) {
    this.layout = options.layout ?? BUILT_IN;
    this.#journal = options.journal === true ? new LineFile(join(outDir, OUTPUT_FILES.runsJournal)) : null;
    this.#journal?.write(journalHeader(this.layout.width));
    this.#runsJsonl = options.runsJsonl === false ? null : new LineFile(join(outDir, OUTPUT_FILES.runsJsonl));
    this.#runsCsv = options.runsCsv === false ? null : new LineFile(join(outDir, OUTPUT_FILES.runsCsv));
    this.#summaries = options.summaries === false ? null : 0;
    this.#summaryJson = this.#summaries === null ? null : new LineFile(join(outDir, OUTPUT_FILES.summaryJson));
    this.#summaryCsv = this.#summaries === null ? null : new LineFile(join(outDir, OUTPUT_FILES.summaryCsv));
    this.#runsCsv?.write(runsCsvHeader(this.layout));
  }

  /**
   * Rows in sweep order, a batch at a time (one write per file): both run tables' lines, formatted by runLines
   * (text) or runLineBytes (UTF-8), and the rows' journal block (journalBlock). The journal is written first:
   * a view never holds a row the journal lacks.
   */
  writeRuns(lines: { readonly jsonl: string | Uint8Array; readonly csv: string | Uint8Array }, journal?: Uint8Array): void {
    if (journal !== undefined && journal.length > 0) this.#journal?.write(journal);
    if (lines.jsonl.length === 0 && lines.csv.length === 0) return;
    this.#runsJsonl?.write(lines.jsonl);
    this.#runsCsv?.write(lines.csv);
  }

  /** Whether this folder keeps a journal (a sweep's does, a merge's not): its batches carry their blocks. */
  get keepsJournal(): boolean {
    return this.#journal !== null;
  }

  writeSummary(row: SummaryRow): void {
    if (this.#summaries === null) return;
    if (this.#summaries === 0) this.#summaryCsv!.write(summaryCsvHeader(row));
    this.#summaryCsv!.write(summaryCsvLine(row));
    this.#summaryJson!.write(summaryJsonItem(row, this.#summaries));
    this.#summaries++;
  }

  #tables(): LineFile[] {
    return [this.#journal, this.#runsJsonl, this.#runsCsv, this.#summaryJson, this.#summaryCsv].filter((file): file is LineFile => file !== null);
  }

  /** Flushes every table and starts syncing it to disk (LineFile.syncInBackground); close syncs and waits. */
  syncInBackground(): void {
    for (const file of this.#tables()) file.syncInBackground();
  }

  /** The run tables this folder writes (a sweep's lines are formatted for these only). */
  get runTables(): RunTables {
    return { jsonl: this.#runsJsonl !== null, csv: this.#runsCsv !== null };
  }

  /** Summary rows written so far (0 for a folder without summaries). */
  get summaryRows(): number {
    return this.#summaries ?? 0;
  }

  /** Closes the tables, each flushed and synced; summary.json is a valid JSON array only after this. */
  close(): void {
    if (this.#summaries !== null) this.#summaryJson!.write(summaryJsonEnd(this.#summaries));
    for (const file of this.#tables()) file.close();
  }

  /** After a failure: closes every table without writing more. */
  abandon(): void {
    for (const file of this.#tables()) file.abandon();
  }
}

/** manifest.json, replaced whole (atomically: see writeFileAtomic). */
export function writeManifest(outDir: string, manifest: unknown): void {
  writeFileAtomic(join(outDir, OUTPUT_FILES.manifest), `${JSON.stringify(manifest, null, 2)}\n`);
}
