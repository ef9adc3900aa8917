import { recordedBounds, type BoundsDeclaration } from "../bounds/bound-choice.js";
import type { SummaryRow } from "../run/summary-types.js";
import type { Shard } from "../sweep/shard.js";
import { readManifest, recordedDataVersion, requireComplete } from "../runner/manifest.js";
import { recordsOf, summaryRows } from "../runner/read-result-folder.js";
import type { ToolInfo } from "../runner/tool-info.js";
import { POINT_KEYS } from "../vocabulary/point-parameters.js";

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
  /**
   * The converged runs of each point, for the statistical tests: their repeats and, of each column the rules
   * read, their values (null where a run has none), in run order. Only those columns are kept: a whole row
   * took ~1.9 KB, and a folder of 200 000 runs 831 MB.
   */
  readonly runs: ReadonlyMap<string, ConvergedRuns>;
  /** Whether each run of a point converged, by repeat, with its seed (error runs count as not converged): see runOutcomes. */
  readonly outcomes: ReadonlyMap<string, PointOutcomes>;
}

/**
 * A point's runs, a field an array (V8 keeps arrays of small integers and of doubles unboxed, 8 bytes a value;
 * an object a run took ~56): their repeats, seeds, and 1 where they converged.
 */
export interface PointOutcomes {
  readonly repeats: number[];
  readonly seeds: number[];
  readonly converged: number[];
}

/** A point's runs as records (made for the caller, in run order). */
export function runOutcomes(results: LoadedResults, key: string): { readonly repeat: number; readonly seed: number; readonly converged: boolean }[] {
  const own = results.outcomes.get(key);
  return own === undefined ? [] : own.repeats.map((repeat, k) => ({ repeat, seed: own.seeds[k]!, converged: own.converged[k] === 1 }));
}

/** A point's converged runs as compare keeps them: their repeats, and each column's values (NaN where a run has none). */
export interface ConvergedRuns {
  readonly repeats: number[];
  readonly columns: ReadonlyMap<string, number[]>;
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

/**
 * A complete result folder as compare reads it. `columns(optimal)` names the run columns the rules read, given
 * whether the folder computed the max-margin separator (a rule's `ratio.novikoff` reads its ratio, or the planted one's).
 */
export function loadResults(folder: string, columns: (optimal: boolean) => readonly string[] = () => []): LoadedResults {
  const needs = "compare needs a complete result folder written by run, run --shard or merge";
  const manifest = readManifest(folder, needs);
  requireComplete(folder, manifest);
  const summary = summaryRows(folder, manifest, needs);
  const points = new Map(summary.map((row) => [pointKey(row), row]));
  const kept = [...new Set(columns(manifest.resolved.optimal))];
  const runs = new Map<string, { repeats: number[]; columns: Map<string, number[]> }>();
  const outcomes = new Map<string, PointOutcomes>();
  // A point's runs are consecutive: its key is made where the point changes, not once a run.
  let lastPoint = -1;
  let key = "";
  for (const row of recordsOf(folder)) {
    if (row.point !== lastPoint) {
      lastPoint = row.point;
      key = pointKey(row);
    }
    const converged = row.status === "ok" && row.converged === true;
    let outcome = outcomes.get(key);
    if (outcome === undefined) outcomes.set(key, (outcome = { repeats: [], seeds: [], converged: [] }));
    outcome.repeats.push(row.repeat);
    outcome.seeds.push(row.seed);
    outcome.converged.push(converged ? 1 : 0);
    if (!converged) continue;
    let own = runs.get(key);
    if (own === undefined) runs.set(key, (own = { repeats: [], columns: new Map(kept.map((column) => [column, []])) }));
    own.repeats.push(row.repeat);
    const record = row as unknown as Record<string, unknown>;
    for (const column of kept) {
      const value = record[column];
      own.columns.get(column)!.push(typeof value === "number" ? value : NaN);
    }
  }
  const dataVersion = recordedDataVersion(manifest);
  return { folder, name: manifest.experiment.name, hash: manifest.experiment.hash, tool: manifest.tool, optimal: manifest.resolved.optimal, bounds: recordedBounds(manifest.resolved), dataVersion, shard: manifest.shard, points, runs, outcomes };
}

