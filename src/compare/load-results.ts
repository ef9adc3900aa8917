import { recordedBounds, type BoundsDeclaration } from "../bounds/bound-choice.js";
import type { SummaryRow } from "../aggregate/summary-types.js";
import type { Shard } from "../sweep/shard.js";
import { readManifest, recordedDataVersion, requireComplete } from "../runner/manifest.js";
import { recordsOf, summaryRows } from "../runner/read-result-folder.js";
import type { ToolInfo } from "../runner/tool-info.js";
import { POINT_KEYS, type RunRow } from "../run/run-types.js";

/** A result folder as compare reads it. */
export interface LoadedResults {
  readonly folder: string;
  readonly name: string;
  readonly hash: string;
  readonly tool: ToolInfo;
  readonly optimal: boolean;
  /** Which bounds its runs computed (every one, for folders written before the `bounds` key). */
  readonly bounds: BoundsDeclaration;
  /** docs/theory.md, "Data versions": how the data were drawn (1 for folders that do not say). */
  readonly dataVersion: number;
  /** The shard the folder holds (its summaries are then over the shard's runs), or null. */
  readonly shard: Shard | null;
  /** Grid points by their parameters (pointKey). */
  readonly points: ReadonlyMap<string, SummaryRow>;
  /** The converged runs of each point, for the statistical tests. */
  readonly runs: ReadonlyMap<string, readonly RunRow[]>;
  /** Whether each run of a point converged, by repeat, with its seed (error runs count as not converged). */
  readonly outcomes: ReadonlyMap<string, readonly { readonly repeat: number; readonly seed: number; readonly converged: boolean }[]>;
}

/** The parameters that identify a grid point across two result folders. */
export function pointKey(p: Pick<SummaryRow, (typeof POINT_KEYS)[number]>): string {
  return JSON.stringify(POINT_KEYS.map((key) => p[key]));
}

/**
 * The parameters that define a point's data (docs/theory.md, seeds: η, ŵ(0), order and bias do not enter):
 * the runs of points with the same data key and the same repeat share their data set.
 */
export function dataKey(p: Pick<SummaryRow, "generator" | "data" | "n" | "d" | "margin" | "radius" | "offset" | "c">): string {
  return JSON.stringify([p.generator, p.data, p.n, p.d, p.margin, p.radius, p.offset, p.c]);
}

export function loadResults(folder: string): LoadedResults {
  const needs = "compare needs a complete result folder written by run, run --shard or merge";
  const manifest = readManifest(folder, needs);
  requireComplete(folder, manifest);
  const summary = summaryRows(folder, manifest, needs);
  const points = new Map(summary.map((row) => [pointKey(row), row]));
  const runs = new Map<string, RunRow[]>();
  const outcomes = new Map<string, { repeat: number; seed: number; converged: boolean }[]>();
  for (const row of recordsOf(folder)) {
    const key = pointKey(row);
    const converged = row.status === "ok" && row.converged === true;
    append(outcomes, key, { repeat: row.repeat, seed: row.seed, converged });
    if (converged) append(runs, key, row);
  }
  const dataVersion = recordedDataVersion(manifest);
  return { folder, name: manifest.experiment.name, hash: manifest.experiment.hash, tool: manifest.tool, optimal: manifest.resolved.optimal, bounds: recordedBounds(manifest.resolved), dataVersion, shard: manifest.shard, points, runs, outcomes };
}

function append<T>(map: Map<string, T[]>, key: string, value: T): void {
  const list = map.get(key);
  if (list) list.push(value);
  else map.set(key, [value]);
}
