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

/**
 * Each run's cost of a sweep's point (estimateRunCost): what its batches and its shards are cut by. One
 * function for every place that splits the sweep into shards (run, --dry-run, merge), which must agree.
 */
export function pointCostOf(maxEpochs: number): (point: SweepPoint) => number {
  return (point) => estimateRunCost(point.parameters, maxEpochs);
}
