import { splitOf } from "../sweep/shard.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT_FILES, TABLE_FILES } from "../export/result-writer.js";
import { readManifest, recordedParquet, recordedParquetOnly, recordedTables, requireComplete } from "./manifest.js";
import { DEFAULT_RUN_TABLES } from "../vocabulary/result-files.js";
import { RUNS_PARQUET } from "./write-runs-parquet.js";
import { InputError } from "../vocabulary/input-error.js";
import { commandLineOr } from "../vocabulary/option-words.js";
import { checkResultFolder, inspectResultFolder } from "./result-folder.js";
import { recordedExperiment } from "./recorded-experiment.js";
import { runExperiment } from "./run-experiment.js";
import { toolInfo, type ToolInfo } from "./tool-info.js";

export interface TableDifference {
  readonly file: string;
  /** The first line that differs (1-based), or null when one file is a prefix of the other. */
  readonly line: number | null;
}

export interface RerunReport {
  readonly outDir: string;
  /** The tables compared: the four, or a shard's two (runs.csv, runs.jsonl); and runs.parquet where the sweep wrote it (a folder of runs.parquet only: without the two). */
  readonly tables: readonly string[];
  readonly identical: boolean;
  readonly differences: readonly TableDifference[];
  /** The tool that wrote the original, and this one, when they differ (version, commit or Node). */
  readonly toolChanged: { readonly then: ToolInfo; readonly now: ToolInfo } | null;
}

/**
 * Runs again the experiment a result folder's manifest records (its contents, not the file on disk,
 * which may have changed) into `outDir`, and compares the four tables (TABLE_FILES) byte for byte.
 */
export async function rerunExperiment(folder: string, outDir: string, threads?: number, options: { readonly overwrite?: boolean } = {}): Promise<RerunReport> {
  const manifest = readManifest(folder, "rerun needs a result folder written by perceptron-lab run");
  requireComplete(folder, manifest);
  // A rerun starts afresh: an out folder that holds results (an earlier rerun's) is replaced only when asked.
  // (run's own refusal would advise a resume, which a rerun does not do.)
  // An empty --out or the working folder is refused as run refuses it, before anything is looked at there.
  checkResultFolder(outDir, "--out");
  if (options.overwrite !== true && inspectResultFolder(outDir).hasResults) {
    throw new InputError(`${outDir} already holds results: ${commandLineOr("choose another --out, or add --overwrite to replace them", "choose another outDir, or { overwrite: true } to replace them")}`);
  }
  // A shard's folder is rerun as that shard, and holds no summaries to compare.
  // Cut by the split model it was cut by (1 for a shard of 0.14 and before, whose manifest names none).
  const shard = manifest.shard === null || manifest.shard === undefined ? undefined : { ...manifest.shard, split: splitOf(manifest.shard) };
  const parquet = recordedParquet(manifest);
  // The views the folder kept (a folder before 0.16: both text tables, or none for --parquet-only).
  const views = recordedTables(manifest) ?? (recordedParquetOnly(manifest) ? (["parquet"] as const) : DEFAULT_RUN_TABLES);
  await runExperiment(recordedExperiment(folder, manifest), { outDir, ...(threads === undefined ? {} : { threads }), ...(shard ? { shard } : {}), tables: views, overwrite: options.overwrite === true });
  const text = TABLE_FILES.filter((file) => (file === OUTPUT_FILES.runsCsv ? views.includes("csv") : file === OUTPUT_FILES.runsJsonl ? views.includes("jsonl") : !shard));
  // runs.parquet too, where the sweep wrote it: compared byte for byte like the others.
  const tables = parquet ? [...text, RUNS_PARQUET] : text;
  const differences = tables.flatMap((file) => {
    const difference = compareFiles(join(folder, file), join(outDir, file));
    return difference === undefined ? [] : [{ file, line: difference }];
  });
  const now = toolInfo();
  const then = manifest.tool;
  const changed = then.version !== now.version || then.git?.commit !== now.git?.commit || then.git?.dirty !== now.git?.dirty || then.node !== now.node;
  return { outDir, tables, identical: differences.length === 0, differences, toolChanged: changed ? { then, now } : null };
}

/** undefined when equal; else the first differing line (1-based), null when one is a prefix of the other. */
function compareFiles(a: string, b: string): number | null | undefined {
  if (!existsSync(a)) return 1;
  if (a.endsWith(".parquet")) return readFileSync(a).equals(readFileSync(b)) ? undefined : null;
  const left = readFileSync(a, "utf8");
  const right = readFileSync(b, "utf8");
  if (left === right) return undefined;
  const l = left.split("\n");
  const r = right.split("\n");
  for (let i = 0; i < Math.min(l.length, r.length); i++) if (l[i] !== r[i]) return i + 1;
  return null;
}
