import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import type { SummaryRow } from "../aggregate/summary-types.js";
import { InputError } from "../experiment/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { readManifest, requireComplete } from "../runner/manifest.js";
import { RecordStream } from "../runner/recorded-runs.js";
import type { ToolInfo } from "../runner/tool-info.js";
import { POINT_KEYS, type RunRow } from "../run/run-types.js";

/** A result folder as compare reads it. */
export interface LoadedResults {
  readonly folder: string;
  readonly name: string;
  readonly hash: string;
  readonly tool: ToolInfo;
  readonly optimal: boolean;
  /** Grid points by their parameters (pointKey). */
  readonly points: ReadonlyMap<string, SummaryRow>;
  /** The converged runs of each point, for the statistical test. */
  readonly runs: ReadonlyMap<string, readonly RunRow[]>;
}

/** The parameters that identify a grid point across two result folders. */
export function pointKey(p: Pick<SummaryRow, (typeof POINT_KEYS)[number]>): string {
  return JSON.stringify(POINT_KEYS.map((key) => p[key]));
}

export function loadResults(folder: string): LoadedResults {
  const needs = "compare needs a complete result folder written by run (or merge)";
  const manifest = readManifest(folder, needs);
  requireComplete(folder, manifest);
  const read = (file: string) => {
    const path = join(folder, file);
    if (!existsSync(path)) throw new InputError(`${folder}: no ${file}; ${needs}`);
    try {
      return JSON.parse(readFileSync(path, "utf8"));
    } catch {
      throw new InputError(`${path}: not valid JSON`);
    }
  };
  const summary = read(OUTPUT_FILES.summaryJson) as SummaryRow[];
  const points = new Map(summary.map((row) => [pointKey(row), row]));
  const runs = new Map<string, RunRow[]>();
  const stream = new RecordStream(join(folder, OUTPUT_FILES.runsJsonl));
  for (let row = stream.take(); row !== null; row = stream.take()) {
    if (row.status !== "ok" || !row.converged) continue;
    const key = pointKey(row);
    const list = runs.get(key);
    if (list) list.push(row);
    else runs.set(key, [row]);
  }
  return { folder, name: manifest.experiment.name, hash: manifest.experiment.hash, tool: manifest.tool, optimal: manifest.resolved.optimal, points, runs };
}
