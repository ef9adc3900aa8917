import { existsSync, readdirSync, rmdirSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { replacedBy, temporaryName } from "../files/atomic-file.js";
import { removePath } from "../files/checked-fs.js";
import { PLOT_FILES, REPORT_FILES } from "../vocabulary/result-files.js";
import { generatorPlotFiles } from "../generators/generator-registry.js";
import { LOCK_STAGING } from "./folder-lock.js";
import { isWithin, refuseLinkedSubfolder } from "./linked-paths.js";
import { findManifest, recordedTables, type Manifest } from "./manifest.js";
import { VIOLATIONS_FOLDER, VIOLATION_FILE } from "./write-violation-data.js";
import { RUNS_PARQUET } from "./write-runs-parquet.js";

/** The rows an interrupted or resumed invocation recorded, kept until the next one has rewritten them (its journal). */
export const PREVIOUS_JOURNAL = "runs.previous.journal";
/** The same of a folder written before 0.16, whose record was runs.jsonl (read, resumed and merged as before). */
export const PREVIOUS_RUNS = "runs.previous.jsonl";
/** Where a sweep's summaries spill the values they cannot hold in memory: a private folder of the result folder. */
export const SPILL_PREFIX = ".spill-";
/** Where merge writes its tables before it moves them into the result folder: a private folder of it. */
export const MERGE_STAGING = ".merge-";

export interface FolderState {
  /** Any file this tool writes is there. */
  readonly hasResults: boolean;
  /**
   * Recorded runs are there, something a resume can reuse: the journal (runs.journal, runs.previous.journal),
   * or in a folder before 0.16 runs.jsonl or runs.previous.jsonl ("legacy" records; a later folder's runs.jsonl
   * is a view, never read back).
   */
  readonly hasRecords: boolean;
  readonly records: "journal" | "legacy" | null;
  readonly manifest: Manifest | null;
}

/** The files this tool writes at the top of a result folder (the temporary ones a kill may leave included). */
const OWN_FILES = [...Object.values(OUTPUT_FILES), PREVIOUS_JOURNAL, `${PREVIOUS_JOURNAL}.tmp`, PREVIOUS_RUNS, `${PREVIOUS_RUNS}.tmp`, RUNS_PARQUET, REPORT_FILES.html, REPORT_FILES.markdown];

export function inspectResultFolder(outDir: string): FolderState {
  const manifest = findManifest(outDir);
  const has = (file: string) => existsSync(join(outDir, file));
  const records = has(OUTPUT_FILES.runsJournal) || has(PREVIOUS_JOURNAL) ? "journal" : recordedTables(manifest) === null && (has(OUTPUT_FILES.runsJsonl) || has(PREVIOUS_RUNS)) ? "legacy" : null;
  const hasResults = records !== null || OWN_FILES.some(has) || has(VIOLATIONS_FOLDER);
  return { hasResults, hasRecords: records !== null, records, manifest };
}

/**
 * Refuses a result folder that a slip would make dangerous: empty (an unset variable in a script), or the
 * working folder or one of its ancestors, where the tool's own file names could be a user's files.
 */
export function checkResultFolder(outDir: string, flag: string): void {
  if (outDir.trim() === "") throw new InputError(`${flag} is empty: name the result folder (an unset variable in a script?)`);
  // Links resolved on both sides: `ln -s . here; --out here` is the working folder too.
  if (isWithin(process.cwd(), outDir)) {
    throw new InputError(`${flag} ${outDir}: is the working folder or one of its ancestors; results go into a folder of their own (say results/<name>)`);
  }
}

/**
 * --overwrite: removes the files this tool writes, by their names, and nothing else: plots/ and violations/
 * lose only the tool's files, and stay if anything else is in them. The records go first and the manifest
 * last, so that a kill part way leaves either the old manifest without records, or no manifest: a folder
 * that a plain --resume starts afresh.
 */
export function clearResults(outDir: string, keep: ReadonlySet<string> = new Set()): void {
  // Through a link, the files removed by name below would be another folder's.
  refuseLinkedSubfolder(outDir, REPORT_FILES.plots);
  refuseLinkedSubfolder(outDir, VIOLATIONS_FOLDER);
  // `keep`: files (relative to outDir) a staged move already brought, which belong to the new results.
  const remove = (file: string) => {
    if (!keep.has(file)) removePath(join(outDir, file));
  };
  remove(OUTPUT_FILES.runsJournal);
  remove(PREVIOUS_JOURNAL);
  remove(OUTPUT_FILES.runsJsonl);
  remove(PREVIOUS_RUNS);
  for (const file of OWN_FILES) if (file !== OUTPUT_FILES.manifest) remove(file);
  const plotFiles = new Set([...PLOT_FILES, ...generatorPlotFiles()]);
  removeOwnFiles(join(outDir, REPORT_FILES.plots), (file) => plotFiles.has(file));
  removeOwnFiles(join(outDir, VIOLATIONS_FOLDER), (file) => VIOLATION_FILE.test(file) && !keep.has(join(VIOLATIONS_FOLDER, file)));
  remove(OUTPUT_FILES.manifest);
}

/**
 * Removes what an earlier process of this tool left when it was killed: temporary files and spill folders.
 * Only under the folder's lock, when no other process of ours writes there.
 */
export function removeLeftovers(outDir: string): void {
  for (const file of [OUTPUT_FILES.manifest, RUNS_PARQUET, REPORT_FILES.html, REPORT_FILES.markdown]) removePath(temporaryName(join(outDir, file)));
  for (const file of [...PLOT_FILES, ...generatorPlotFiles()]) removePath(temporaryName(join(outDir, REPORT_FILES.plots, file)));
  if (!existsSync(outDir)) return;
  for (const entry of readdirSync(outDir)) {
    if (entry.startsWith(SPILL_PREFIX) || entry.startsWith(MERGE_STAGING) || entry.startsWith(LOCK_STAGING)) removePath(join(outDir, entry), { recursive: true });
  }
}

/** Removes the files of `folder` that `own` accepts, then the folder if nothing else is left in it. */
function removeOwnFiles(folder: string, own: (file: string) => boolean): void {
  if (!existsSync(folder)) return;
  for (const file of readdirSync(folder)) {
    const replaced = replacedBy(file);
    if (own(file) || (replaced !== null && own(replaced))) removePath(join(folder, file));
  }
  try {
    rmdirSync(folder);
  } catch {
    // not empty: the user's files stay, and so does their folder
  }
}
