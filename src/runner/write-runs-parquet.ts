import { toolVersion } from "./tool-info.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { temporaryName, writeFileAtomicWith } from "../files/atomic-file.js";
import { removePath, renameDurably } from "../files/checked-fs.js";
import { InputError } from "../vocabulary/input-error.js";
import { LineFile } from "../export/line-file.js";
import { OUTPUT_FILES, writeManifest } from "../export/result-writer.js";
import { shardRowGroup, WHOLE_ROW_GROUP } from "../export/runs-parquet.js";
import { RunsParquetWriter, type RunsParquetDigest } from "../export/runs-parquet-writer.js";
import type { Shard } from "../sweep/shard.js";
import { findManifest, recordedParquet, recordedParquetOnly, recordedRunsParquet, type Manifest } from "./manifest.js";
import { recordedLayout, type TableLayout } from "../run/table-layout.js";
import { ParquetRecordStream, RecordStream } from "./recorded-runs.js";
import { JournalStream, JournalWriter } from "./journal-stream.js";
import { optionsText } from "../vocabulary/option-words.js";

export const RUNS_PARQUET = "runs.parquet";

/**
 * Writes a complete folder's runs.parquet from its journal (every block's check verified), or, in a folder
 * before 0.16 asked for it, from its runs.jsonl (every record's check verified),
 * a row group at a time, Snappy-compressed, through writeFileAtomicWith: a kill leaves the old file or
 * none. The bytes depend only on the rows and `rowGroup` (a whole sweep's WHOLE_ROW_GROUP; a shard's,
 * shardRowGroup), so equal tables give equal files. Returns what the manifest records of it.
 */
export function writeRunsParquet(folder: string, rowGroup = WHOLE_ROW_GROUP, layout: TableLayout = recordedLayout(findManifest(folder))): RunsParquetDigest {
  const path = join(folder, RUNS_PARQUET);
  let digest: RunsParquetDigest | undefined;
  try {
    writeFileAtomicWith(path, (append) => {
      const writer = new RunsParquetWriter(append, rowGroup, layout, parquetCreatedBy());
      const journal = join(folder, OUTPUT_FILES.runsJournal);
      if (existsSync(journal)) {
        const stream = new JournalStream(journal, layout);
        for (let block = stream.takeBlock(); block !== null; block = stream.takeBlock()) writer.addBinary(block);
      } else {
        const stream = new RecordStream(join(folder, OUTPUT_FILES.runsJsonl));
        for (let row = stream.take(); row !== null; row = stream.take()) writer.add([row]);
      }
      digest = writer.finish();
    });
  } catch (error) {
    // Not left for the next command's clean-up: a file of up to a whole table's size.
    removePath(temporaryName(path));
    throw error;
  }
  return digest!;
}

/** The row group of a folder's runs.parquet: a whole sweep's, or a shard's (see shardRowGroup). */
export function parquetRowGroup(shard: Shard | null): number {
  return shard === null ? WHOLE_ROW_GROUP : shardRowGroup(shard.count);
}

/** runs.jsonl and runs.csv, once a complete folder's manifest records its runs.parquet (run --parquet-only). */
export function removeTextRuns(folder: string): void {
  removePath(join(folder, OUTPUT_FILES.runsJsonl));
  removePath(join(folder, OUTPUT_FILES.runsCsv));
}

/**
 * A complete folder resumed (every sweep now keeps runs.parquet): writes it from runs.jsonl where the manifest
 * does not record one (a folder before 0.16), records it in the manifest, and, for --tables parquet, removes the
 * text tables (also those a kill left after the manifest recorded runs.parquet).
 */
export function completeRunsTables(folder: string, manifest: Manifest, { parquetOnly }: { readonly parquetOnly: boolean }): void {
  const recorded = recordedRunsParquet(manifest);
  const kept = recorded !== null && existsSync(join(folder, RUNS_PARQUET));
  if (!kept || !recordedParquet(manifest) || recordedParquetOnly(manifest) !== parquetOnly) {
    if (!kept && !existsSync(join(folder, OUTPUT_FILES.runsJsonl))) {
      throw new InputError(`${folder}: neither runs.jsonl nor the runs.parquet its manifest records is there to give the runs: ${optionsText("overwrite")} runs the sweep again`);
    }
    const runsParquet = kept ? recorded : writeRunsParquet(folder, parquetRowGroup(manifest.shard));
    // The text runs that --parquet-only removes leave the tables' record with them.
    const tables = manifest.tables === undefined || !parquetOnly ? manifest.tables : Object.fromEntries(Object.entries(manifest.tables).filter(([name]) => name !== OUTPUT_FILES.runsJsonl && name !== OUTPUT_FILES.runsCsv));
    const views = parquetOnly ? { tables: ["parquet"] } : {};
    writeManifest(folder, { ...manifest, options: { ...manifest.options, parquet: true, parquetOnly, ...views }, runsParquet, ...(tables === undefined ? {} : { tables }) });
  }
  if (parquetOnly) removeTextRuns(folder);
}

/**
 * A complete folder about to be resumed with changes (--force, --retry-errors): the rows of its runs.parquet
 * written back as a journal to `to` (a temporary file renamed into place), for the resume to reuse as it
 * reuses any recorded runs. Nothing where the manifest records no runs.parquet.
 */
export function journalFromParquet(folder: string, manifest: Manifest, to: string): void {
  const digest = recordedRunsParquet(manifest);
  if (digest === null || manifest.status !== "complete") return;
  const layout = recordedLayout(manifest);
  const stream = new ParquetRecordStream(join(folder, RUNS_PARQUET), digest, layout);
  const temporary = `${to}.tmp`;
  const out = new LineFile(temporary);
  const writer = new JournalWriter(out, layout);
  for (let row = stream.take(); row !== null; row = stream.take()) writer.add(row);
  writer.flush();
  out.close();
  renameDurably(temporary, to);
}

/** runs.parquet's created_by: this tool and its version, as Parquet's writers name themselves. */
export function parquetCreatedBy(): string {
  const { name, version } = toolVersion();
  return `${name} version ${version}`;
}
