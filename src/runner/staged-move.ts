import { existsSync, readdirSync, readFileSync } from "node:fs";
import { basename, dirname, join } from "node:path";
import { OUTPUT_FILES, TABLE_FILES } from "../export/result-writer.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { makeFolder, removePath, renameDurably } from "../files/checked-fs.js";
import { clearResults } from "./result-folder.js";
import { VIOLATIONS_FOLDER } from "./write-violation-data.js";
import { RUNS_PARQUET } from "./write-runs-parquet.js";

/**
 * The journal of a staged folder's move into a result folder (merge's last step): the staging folder's
 * name and the files it brings, written before the first file moves and removed after the last. A move
 * killed part way (old tables gone, some new ones moved, the manifest not yet) is finished by the next
 * writer of the folder under its lock (finishStagedMove), so the folder never stays half old, half new.
 */
export const MOVE_JOURNAL = ".perceptron-lab.move.json";

interface Journal {
  readonly staging: string;
  readonly files: readonly string[];
}

/** Moves the staged tables, runs.parquet, violation files and manifest into `outDir`, through the journal. */
export function moveStagedResults(staging: string, outDir: string): void {
  const files = [...TABLE_FILES, RUNS_PARQUET].filter((file) => existsSync(join(staging, file)));
  const violations = join(staging, VIOLATIONS_FOLDER);
  if (existsSync(violations)) for (const file of readdirSync(violations)) files.push(join(VIOLATIONS_FOLDER, file));
  files.push(OUTPUT_FILES.manifest);
  writeFileAtomic(join(outDir, MOVE_JOURNAL), `${JSON.stringify({ staging: basename(staging), files } satisfies Journal)}\n`);
  completeMove(outDir, { staging: basename(staging), files });
}

/**
 * Finishes a move a killed process left part way, if its journal is there: true when it did. Only under
 * the folder's lock (no other process of ours writes there).
 */
export function finishStagedMove(outDir: string): boolean {
  const path = join(outDir, MOVE_JOURNAL);
  if (!existsSync(path)) return false;
  let journal: Journal;
  try {
    journal = JSON.parse(readFileSync(path, "utf8")) as Journal;
  } catch {
    // Written atomically, so whole or absent: a broken one is not ours to act on.
    return false;
  }
  if (!existsSync(join(outDir, journal.staging))) {
    // Every file moved; only the journal was left: its removal is the move's last step.
    removePath(path);
    return true;
  }
  completeMove(outDir, journal);
  return true;
}

/**
 * The move itself, idempotent: the folder's old results go (all but the files the move brings, which it
 * replaces), each file still in the staging folder comes over, the manifest last; then the staging folder
 * and the journal go.
 */
function completeMove(outDir: string, { staging, files }: Journal): void {
  const from = join(outDir, staging);
  const manifestMoved = !existsSync(join(from, OUTPUT_FILES.manifest));
  if (!manifestMoved) clearResults(outDir, new Set(files.filter((file) => !existsSync(join(from, file)))));
  for (const file of files) {
    if (file === OUTPUT_FILES.manifest || !existsSync(join(from, file))) continue;
    makeFolder(dirname(join(outDir, file)));
    renameDurably(join(from, file), join(outDir, file));
  }
  if (!manifestMoved) renameDurably(join(from, OUTPUT_FILES.manifest), join(outDir, OUTPUT_FILES.manifest));
  removePath(from, { recursive: true });
  removePath(join(outDir, MOVE_JOURNAL));
}
