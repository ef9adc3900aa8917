import { existsSync, rmSync } from "node:fs";
import { join } from "node:path";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { REPORT_FILES } from "../report/write-report.js";
import { findManifest, type Manifest } from "./manifest.js";
import { VIOLATIONS_FOLDER } from "./write-violation-data.js";

/** The rows an interrupted or resumed invocation recorded, kept until the next one has rewritten them. */
export const PREVIOUS_RUNS = "runs.previous.jsonl";

export interface FolderState {
  /** Any file this tool writes is there. */
  readonly hasResults: boolean;
  readonly manifest: Manifest | null;
}

const OWN_FILES = [...Object.values(OUTPUT_FILES), PREVIOUS_RUNS, `${PREVIOUS_RUNS}.tmp`, REPORT_FILES.html, REPORT_FILES.markdown];

export function inspectResultFolder(outDir: string): FolderState {
  const hasResults = OWN_FILES.some((file) => existsSync(join(outDir, file))) || existsSync(join(outDir, VIOLATIONS_FOLDER));
  return { hasResults, manifest: findManifest(outDir) };
}

/** --overwrite: removes the files this tool writes (and nothing else the folder may hold). */
export function clearResults(outDir: string): void {
  for (const file of OWN_FILES) rmSync(join(outDir, file), { force: true });
  rmSync(join(outDir, VIOLATIONS_FOLDER), { recursive: true, force: true });
  rmSync(join(outDir, REPORT_FILES.plots), { recursive: true, force: true });
}
