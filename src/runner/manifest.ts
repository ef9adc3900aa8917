import { runTablesOf, type RunTableName } from "../vocabulary/result-files.js";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { Experiment } from "../experiment/experiment.js";
import { InputError } from "../vocabulary/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { FIRST_DATA_VERSION, type DataVersion } from "../random/data-version.js";
import type { RunsParquetDigest } from "../export/runs-parquet-writer.js";
import type { Shard } from "../sweep/shard.js";
import type { ToolInfo } from "./tool-info.js";
import { commandLineOr } from "../vocabulary/option-words.js";

/**
 * manifest.json, as run and merge write it: written when a sweep starts (status running, counts of
 * nothing yet) and again when it ends. The fields that resume, merge, rerun, report and compare read.
 */
export interface Manifest {
  readonly status: "running" | "interrupted" | "complete";
  readonly tool: ToolInfo;
  readonly experiment: { readonly path: string; readonly hash: string; readonly name: string; readonly source: unknown; readonly overrides?: readonly string[] };
  readonly resolved: Experiment;
  /** The shard the folder holds, or null for a whole sweep. */
  readonly shard: Shard | null;
  readonly skipped: unknown;
  /** How the sweep was run (run's options; a merge records its parquet and parquetOnly). */
  readonly options?: Readonly<Record<string, unknown>>;
  /** The complete folder's runs.parquet (see recordedRunsParquet). */
  readonly runsParquet?: RunsParquetDigest;
  /** The complete folder's tables as they stood then (table-record.ts): their sizes, the summaries' SHA-256. */
  readonly tables?: Readonly<Record<string, TableRecord>>;
  readonly counts: {
    readonly runs: number;
    readonly recorded: number;
    readonly errors: number;
    readonly converged?: number;
    readonly notConverged?: number;
    readonly violatingRuns?: number;
  };
}

/**
 * The data version a folder's runs drew with: the manifest's resolved one, or version 1 for folders of
 * tools before data versions, whose manifests name none.
 */
export function recordedDataVersion(manifest: Pick<Manifest, "resolved">): DataVersion {
  return (manifest.resolved as Partial<Experiment>).dataVersion ?? FIRST_DATA_VERSION;
}

/**
 * What reading a folder's runs needs of its manifest (runStreamOf): its state, its runs.parquet's digest, its
 * plug-ins (the tables' columns). merge keeps only this of each shard's manifest once checked: 10⁵ whole
 * manifests held through a merge took most of its memory.
 */
export type RunsManifest = Pick<Manifest, "status" | "runsParquet"> & { readonly resolved: Pick<Experiment, "plugins" | "bounds">; readonly options?: { readonly parquetOnly?: unknown; readonly tables?: unknown } };

/** A manifest cut to what reading its folder's runs needs (see RunsManifest). */
export function runsManifest(manifest: Manifest): RunsManifest {
  const { status, runsParquet, resolved } = manifest;
  return {
    status,
    ...(runsParquet === undefined ? {} : { runsParquet }),
    resolved: { bounds: resolved.bounds, ...(resolved.plugins === undefined ? {} : { plugins: resolved.plugins }) },
    options: { parquetOnly: recordedParquetOnly(manifest), ...(recordedTables(manifest) === null ? {} : { tables: recordedTables(manifest) }) },
  };
}

/** Whether the folder's sweep writes runs.parquet: every sweep since 0.16 (its journal's table); before, run --parquet. */
export function recordedParquet(manifest: Manifest | null): boolean {
  return manifest?.options?.parquet === true || recordedTables(manifest) !== null;
}

/**
 * The run tables a folder of 0.16 or later keeps (its options' `tables`): its runs.jsonl, if any, is a view;
 * its record is runs.journal while it runs, runs.parquet once complete. Null for a folder of an earlier
 * version, whose runs.jsonl was its record.
 */
export function recordedTables(manifest: Pick<Manifest, "options"> | RunsManifest | null): RunTableName[] | null {
  const tables = manifest?.options?.tables;
  if (!Array.isArray(tables)) return null;
  const known = runTablesOf(tables as string[]);
  return "tables" in known ? known.tables : null;
}

/**
 * What a complete folder's runs.parquet holds (rows, bytes, SHA-256), recorded when it was written: a reader
 * checks the file against it. Null where the folder has none, or was written before 0.7.
 */
export function recordedRunsParquet(manifest: Pick<Manifest, "runsParquet"> | null): RunsParquetDigest | null {
  const digest = manifest?.runsParquet;
  return digest !== undefined && typeof digest.sha256 === "string" ? digest : null;
}

/** Whether the folder keeps its runs as runs.parquet only (run --parquet-only): runs.jsonl and runs.csv go once it is written. */
export function recordedParquetOnly(manifest: Pick<Manifest, "options"> | RunsManifest | null): boolean {
  const tables = recordedTables(manifest);
  return tables === null ? manifest?.options?.parquetOnly === true : !tables.includes("csv") && !tables.includes("jsonl");
}

/** The folder's manifest, or null when it has none; one that does not parse is refused by name. */
export function findManifest(folder: string): Manifest | null {
  const path = join(folder, OUTPUT_FILES.manifest);
  if (!existsSync(path)) return null;
  let manifest: Manifest;
  try {
    manifest = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new InputError(`${path}: not a manifest this tool wrote (${(error as Error).message})`);
  }
  if (manifest === null || typeof manifest !== "object" || typeof manifest.experiment?.hash !== "string" || typeof manifest.counts?.runs !== "number") {
    throw new InputError(`${path}: not a manifest this tool wrote`);
  }
  return manifest;
}

/** The folder's manifest; without one, an InputError saying what the command (`purpose`) needs. */
export function readManifest(folder: string, purpose: string): Manifest {
  const manifest = findManifest(folder);
  if (manifest === null) throw new InputError(`${folder}: no manifest.json; ${purpose}`);
  return manifest;
}

/** Refuses a sweep that is not complete, saying how to finish it. */
export function requireComplete(folder: string, manifest: Manifest): void {
  if (manifest.status === "complete") return;
  const shard = manifest.shard === null ? "" : ` --shard ${manifest.shard.index}/${manifest.shard.count}`;
  throw new InputError(`${folder}: the sweep is ${manifest.status}, not complete: finish it with ${commandLineOr(`run${shard} --resume`, "runExperiment(…, { resume: true })")}`);
}

/**
 * What a complete folder's manifest records of its tables as they stood when it was called complete: each
 * table's size, and the SHA-256 of the summaries (small; the runs' records carry their own checks). Every
 * reader checks them (the sizes with one stat each, a summary's digest as it reads it): a table changed,
 * cut short or lengthened after the sweep, or a manifest edited to `complete` over an unfinished folder,
 * is refused by name instead of reported, resumed as complete or compared.
 */
export interface TableRecord {
  readonly bytes: number;
  readonly sha256?: string;
}
