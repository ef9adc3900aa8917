import type { BoundsDeclaration } from "../bounds/bound-choice.js";
import type { RunTables } from "../export/run-lines.js";
import { generatorEntry } from "../generators/generator-registry.js";
import type { DataVersion } from "../random/data-version.js";
import { type RunSpec } from "../run/run-types.js";
import { POINT_KEYS, type PointParameters } from "../vocabulary/point-parameters.js";
import { seedOf, seedPrefix } from "./run-seed.js";

/** What every run of a sweep shares. */
export interface RunSettings {
  /** The experiment's seed, from which every run's seed is derived. */
  readonly seed: number;
  readonly maxEpochs: number;
  /** Whether to compute the max-margin separator. */
  readonly optimal: boolean;
  /** Which bounds every run computes (the experiment's `bounds`, resolved). */
  readonly bounds: BoundsDeclaration;
  /** How every run draws its data, ŵ(0) and permutations (docs/theory.md, "Data versions"). */
  readonly dataVersion: DataVersion;
  /** The plug-in bounds every run computes (docs/plugins.md), in the tables' order, and "worstOrder" last where declared (table-layout.ts); absent without. */
  readonly extraBounds?: readonly string[];
  /** The worst order's node budget (the experiment's worstOrderBudget); absent: the default. */
  readonly worstOrderBudget?: number;
}

/** A grid point of the sweep: its place, the index of its first run, its parameters. */
export interface SweepPoint {
  readonly grid: number;
  readonly point: number;
  readonly firstRun: number;
  readonly parameters: PointParameters;
}

/** Repeats `from` (included) to `to` (excluded) of one grid point. */
export interface RunRange {
  readonly point: SweepPoint;
  readonly from: number;
  readonly to: number;
}

/**
 * A task of the pool: runs as ranges of repeats, in sweep order. A grid point's few numbers travel once
 * per batch instead of a spec per run, and the worker expands them (seeds included): the coordinator
 * neither builds, hashes nor posts a spec per run.
 */
export interface RunBatch {
  readonly settings: RunSettings;
  readonly ranges: readonly RunRange[];
  /** The run tables whose lines the worker formats (default both): a sweep that keeps runs.parquet only writes no runs.csv. */
  readonly tables?: RunTables;
  /** Whether the rows are also made the journal's block (default true: a sweep's folder keeps its journal). */
  readonly journal?: boolean;
}

/** The spec of one run: its place, its seed (see runSeed), the point's parameters, the sweep's settings. */
export function runSpecOf(settings: RunSettings, point: SweepPoint, repeat: number): RunSpec {
  return rangeSpecs(settings, { point, from: repeat, to: repeat + 1 }).next().value!;
}

/** The specs of a batch's runs, in order. */
export function batchSpecs(batch: RunBatch): RunSpec[] {
  const specs: RunSpec[] = [];
  for (const range of batch.ranges) for (const spec of rangeSpecs(batch.settings, range)) specs.push(spec);
  return specs;
}

/** The specs of a range's runs, in order, lazily; the point's seed prefix is built once. */
export function* rangeSpecs(settings: RunSettings, { point, from, to }: RunRange): Generator<RunSpec> {
  const prefix = seedPrefix(settings.seed, dataParameters(point.parameters));
  for (let repeat = from; repeat < to; repeat++) {
    yield SPEC_OF(settings, point, repeat, seedOf(prefix, repeat));
  }
}

type SpecMaker = (settings: RunSettings, point: SweepPoint, repeat: number, seed: number) => RunSpec;

/**
 * A run's spec as one object literal written out once from POINT_KEYS: its place and seed, the point's
 * parameters, the sweep's settings, in that order, every spec of the one shape (extraBounds undefined
 * without plug-in bounds). The parameters spread into the literal instead cost a small run ~0.5 µs to copy,
 * and the spec, read throughout the run, came out slower to read.
 */
const SPEC_OF = new Function(
  "settings",
  "point",
  "repeat",
  "seed",
  `const p = point.parameters;
  return {
    run: point.firstRun + repeat,
    grid: point.grid,
    point: point.point,
    repeat,
    seed,
    ${POINT_KEYS.map((key) => `${key}: p.${key},`).join("\n    ")}
    maxEpochs: settings.maxEpochs,
    optimal: settings.optimal,
    bounds: settings.bounds,
    dataVersion: settings.dataVersion,
    extraBounds: settings.extraBounds,
    worstOrderBudget: settings.worstOrderBudget,
  };`,
) as SpecMaker;

export function batchLength(batch: RunBatch): number {
  return batch.ranges.reduce((sum, range) => sum + range.to - range.from, 0);
}

/** A batch of one run for each run of `batch`, in order (to retry a failed batch run by run). */
export function singleRuns(batch: RunBatch): RunBatch[] {
  return batch.ranges.flatMap(({ point, from, to }) =>
    Array.from({ length: to - from }, (_, k) => ({ ...batch, ranges: [{ point, from: from + k, to: from + k + 1 }] })),
  );
}

/** The parameters that define a run's data set (and so, with the repeat, its seed; see runSeed): its generator's. */
function dataParameters(p: PointParameters): Record<string, unknown> {
  return generatorEntry(p.generator).dataParameters(p);
}
