import { createHash } from "node:crypto";
import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { optionsText } from "../vocabulary/option-words.js";
import type { Manifest, TableRecord } from "./manifest.js";

export type { TableRecord } from "./manifest.js";
import { verifyRecords } from "./recorded-runs.js";


/** Tables whose digest is recorded and checked by every reader (the summaries: small, and read whole by every reader). */
const DIGESTED: readonly string[] = [OUTPUT_FILES.summaryJson, OUTPUT_FILES.summaryCsv];
/**
 * runs.csv's digest is recorded too, and checked where a folder is called complete without being read (a
 * resume of a complete folder, checkTables' `deep`): no reader of the tool reads runs.csv, so a same-size edit
 * would otherwise pass. (runs.jsonl's records carry their own checks: `deep` reads them all.)
 */
const DEEP_DIGESTED: readonly string[] = [OUTPUT_FILES.runsCsv];

/** The version from which a complete manifest records its tables: a complete one of this version or later without them was edited. */
export const TABLES_RECORDED_SINCE = [0, 9] as const;

/** The record of `names` (those present) in `folder`, for its complete manifest. */
export function recordTables(folder: string, names: readonly string[]): Record<string, TableRecord> {
  const tables: Record<string, TableRecord> = {};
  for (const name of names) {
    const path = join(folder, name);
    if (!existsSync(path)) continue;
    tables[name] = DIGESTED.includes(name) || DEEP_DIGESTED.includes(name) ? { bytes: statSync(path).size, sha256: sha256OfFile(path) } : { bytes: statSync(path).size };
  }
  return tables;
}

/**
 * Refuses a complete folder whose tables are not as its manifest recorded them (their sizes, and the
 * digests of the summaries but `readBy`, whose reader checks the bytes it reads: checkTableDigest), or whose
 * manifest says complete without a record where its tool version writes one (edited by hand).
 */
export function checkTables(folder: string, manifest: Manifest, readBy: string | null = null, { deep = false }: { readonly deep?: boolean } = {}): void {
  // Versions before the record wrote none: nothing to check (a record in one of theirs is not theirs).
  if (manifest.status !== "complete" || !recordsTables(manifest.tool.version)) return;
  const tables = manifest.tables;
  if (tables === undefined) throw changedByHand(folder, "manifest.json says complete but records none of its tables' sizes, as a complete manifest of its version does");
  for (const [name, record] of Object.entries(tables)) {
    const path = join(folder, name);
    const bytes = existsSync(path) ? statSync(path).size : null;
    if (bytes === record.bytes) {
      if (record.sha256 === undefined || name === readBy) {
        if (deep && name === OUTPUT_FILES.runsJsonl) verifyRecords(path);
      } else if (DIGESTED.includes(name)) {
        checkTableDigest(folder, manifest, name, readFileSync(path));
      } else if (deep && sha256OfFile(path) !== record.sha256) {
        throw changedByHand(folder, `${name} is not the one the sweep wrote (its SHA-256 differs from manifest.json's record)`);
      }
      continue;
    }
    // Where a record was changed, its check names the line: the more useful refusal.
    if (bytes !== null && name === OUTPUT_FILES.runsJsonl) verifyRecords(path);
    throw changedByHand(folder, `${name} ${bytes === null ? "is missing" : `holds ${bytes} bytes`} where manifest.json recorded ${record.bytes} when the sweep completed`);
  }
}

/** Refuses a summary table whose bytes are not those its complete manifest recorded (when it recorded them). */
export function checkTableDigest(folder: string, manifest: Manifest, name: string, bytes: Buffer): void {
  const record = manifest.status === "complete" && recordsTables(manifest.tool.version) ? manifest.tables?.[name] : undefined;
  if (record?.sha256 === undefined) return;
  if (sha256Of(bytes) !== record.sha256) throw changedByHand(folder, `${name} is not the one the sweep wrote (its SHA-256 differs from manifest.json's record)`);
}

function changedByHand(folder: string, what: string): InputError {
  return new InputError(`${folder}: ${what}: the folder was changed after it was written; ${optionsText("overwrite")} runs the sweep again`);
}

function recordsTables(version: string): boolean {
  const [major, minor] = version.split(".").map(Number) as [number, number];
  return major > TABLES_RECORDED_SINCE[0] || (major === TABLES_RECORDED_SINCE[0] && minor >= TABLES_RECORDED_SINCE[1]);
}

function sha256Of(bytes: Buffer): string {
  return createHash("sha256").update(bytes).digest("hex");
}

/** A file's SHA-256, read a MiB at a time (runs.csv may be larger than memory). */
function sha256OfFile(path: string): string {
  const hash = createHash("sha256");
  const chunk = Buffer.alloc(1 << 20);
  const fd = openSync(path, "r");
  try {
    for (let read = readSync(fd, chunk); read > 0; read = readSync(fd, chunk)) hash.update(chunk.subarray(0, read));
  } finally {
    closeSync(fd);
  }
  return hash.digest("hex");
}
