import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SummaryRow } from "../aggregate/summary-types.js";
import { InputError } from "../experiment/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import type { RunRow } from "../run/run-types.js";
import { readManifest, type Manifest } from "./manifest.js";
import { RecordStream } from "./recorded-runs.js";

/** A result folder as a script reads it. */
export interface ResultFolder {
  readonly folder: string;
  readonly manifest: Manifest;
  /** One row per grid point (summary.json); empty for a shard's folder, which has none. */
  readonly summary: readonly SummaryRow[];
  /** Every run's row, in run order, read lazily from runs.jsonl, each record's check verified. */
  runs(): Generator<RunRow>;
}

/**
 * Opens a result folder written by run or merge: its manifest, its summary rows, and its runs as a
 * stream (a folder of 10⁶ runs is read a record at a time). A record that was changed after it was
 * written is refused (an InputError naming file and line), as every command of the tool refuses it.
 */
export function readResultFolder(folder: string): ResultFolder {
  const manifest = readManifest(folder, "readResultFolder needs a result folder written by perceptron-lab run or merge");
  const summaryPath = join(folder, OUTPUT_FILES.summaryJson);
  let summary: SummaryRow[] = [];
  if (existsSync(summaryPath)) {
    try {
      summary = JSON.parse(readFileSync(summaryPath, "utf8")) as SummaryRow[];
    } catch {
      throw new InputError(`${summaryPath}: not valid JSON (an unfinished sweep? its manifest says ${manifest.status})`);
    }
  }
  return {
    folder,
    manifest,
    summary,
    *runs() {
      const stream = new RecordStream(join(folder, OUTPUT_FILES.runsJsonl));
      for (let row = stream.take(); row !== null; row = stream.take()) yield row;
    },
  };
}
