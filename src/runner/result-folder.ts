import { existsSync, readFileSync, rmSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../experiment/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { REPORT_FILES } from "../report/write-report.js";
import { VIOLATIONS_FOLDER } from "./write-violation-data.js";

/** The rows an interrupted or resumed invocation recorded, kept until the next one has rewritten them. */
export const PREVIOUS_RUNS = "runs.previous.jsonl";

/** What a result folder's manifest says of the invocation that wrote it. */
export interface ManifestSummary {
  readonly status: "running" | "interrupted" | "complete";
  readonly hash: string;
  readonly name: string;
  readonly maxEpochs: number;
  readonly optimal: boolean;
  readonly runs: number;
  /** Runs recorded so far (all of them when complete). */
  readonly recorded: number;
  readonly errors: number;
  /** The shard the folder holds, or null for a whole sweep. */
  readonly shard: { readonly index: number; readonly count: number } | null;
}

export interface FolderState {
  /** Any file this tool writes is there. */
  readonly hasResults: boolean;
  readonly manifest: ManifestSummary | null;
}

const OWN_FILES = [...Object.values(OUTPUT_FILES), PREVIOUS_RUNS, `${PREVIOUS_RUNS}.tmp`, REPORT_FILES.html, REPORT_FILES.markdown];

export function inspectResultFolder(outDir: string): FolderState {
  const hasResults = OWN_FILES.some((file) => existsSync(join(outDir, file))) || existsSync(join(outDir, VIOLATIONS_FOLDER));
  return { hasResults, manifest: readManifestSummary(outDir) };
}

/** --overwrite: removes the files this tool writes (and nothing else the folder may hold). */
export function clearResults(outDir: string): void {
  for (const file of OWN_FILES) rmSync(join(outDir, file), { force: true });
  rmSync(join(outDir, VIOLATIONS_FOLDER), { recursive: true, force: true });
  rmSync(join(outDir, REPORT_FILES.plots), { recursive: true, force: true });
}

function readManifestSummary(outDir: string): ManifestSummary | null {
  const path = join(outDir, OUTPUT_FILES.manifest);
  if (!existsSync(path)) return null;
  try {
    const manifest = JSON.parse(readFileSync(path, "utf8"));
    return {
      status: manifest.status,
      hash: manifest.experiment.hash,
      name: manifest.experiment.name,
      maxEpochs: manifest.resolved.maxEpochs,
      optimal: manifest.resolved.optimal,
      runs: manifest.counts.runs,
      recorded: manifest.counts.recorded ?? manifest.counts.runs,
      errors: manifest.counts.errors,
      shard: manifest.shard ?? null,
    };
  } catch {
    throw new InputError(`${path}: not a manifest this tool wrote; --overwrite starts over`);
  }
}
