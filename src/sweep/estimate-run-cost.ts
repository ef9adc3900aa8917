import { generatorEntry } from "../generators/generator-registry.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";
import type { SweepPoint } from "./run-batch.js";

/**
 * A rough cost of one run in multiply-adds: generation (n·d) plus n·dim per epoch, with the number of
 * epochs its generator guesses (the planted one from (R̂/γ̂)², an upper bound on updates, so on epochs − 1),
 * capped by maxEpochs. Only the batching and the sharding use it: a poor guess costs balance, never correctness.
 */
export function estimateRunCost(p: PointParameters, maxEpochs: number): number {
  const dim = p.bias ? p.d + 1 : p.d;
  return p.n * p.d + p.n * dim * generatorEntry(p.generator).epochsGuess(p, maxEpochs);
}

/** Each run's cost of a sweep's point (estimateRunCost): what its batches are cut by. */
export function pointCostOf(maxEpochs: number): (point: SweepPoint) => number {
  return (point) => estimateRunCost(point.parameters, maxEpochs);
}

/**
 * How a sweep's runs are dealt to shards (shard.ts), recorded in each shard's manifest (Shard.split): every
 * place that splits a sweep (run --shard, its resume and rerun, --dry-run, slurm --dry-run, merge) must use the
 * model the shards were cut by. 1 (up to 0.14): estimateRunCost. 2: a run's fixed cost (its data set, bounds,
 * max-margin solve and record: RUN_FIXED_COST) plus the epochs it typically makes (epochsTypical): 126 measured
 * points dealt to 100 shards came out at 2.0× the median shard's CPU for the costliest shard, against 15.5× by
 * model 1 (docs/beyond-one-machine.md).
 */
export type SplitModel = 1 | 2;
export const SPLIT_MODEL: SplitModel = 2;

/** A run's fixed cost in multiply-adds (~0.1–0.3 ms at ~1 ns each): what a run costs however few its epochs. */
export const RUN_FIXED_COST = 300_000;

/** A run's cost as the split `model` counts it. */
export function splitRunCost(p: PointParameters, maxEpochs: number, model: SplitModel): number {
  if (model === 1) return estimateRunCost(p, maxEpochs);
  const dim = p.bias ? p.d + 1 : p.d;
  const entry = generatorEntry(p.generator);
  const epochs = entry.epochsTypical?.(p, maxEpochs) ?? entry.epochsGuess(p, maxEpochs);
  return RUN_FIXED_COST + p.n * p.d + p.n * dim * epochs;
}

/** Each run's cost of a sweep's point as the split `model` counts it: what its shards are cut by. */
export function splitCostOf(maxEpochs: number, model: SplitModel): (point: SweepPoint) => number {
  return (point) => splitRunCost(point.parameters, maxEpochs, model);
}
