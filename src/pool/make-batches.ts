import type { RunSpec } from "../run/run-types.js";

export interface BatchOptions {
  /** Estimated multiply-adds a batch should carry (see estimateRunCost). */
  readonly targetCost: number;
  readonly maxRuns: number;
}

/**
 * 4·10^6 estimated multiply-adds (a few milliseconds) per task keeps Piscina's ~30 µs round trip
 * under a few percent of the work, while a sweep of heavy runs still spreads over every thread.
 */
export const DEFAULT_BATCH_OPTIONS: BatchOptions = { targetCost: 4e6, maxRuns: 1000 };

/**
 * A rough cost of one run in multiply-adds: generation (n·d) plus n·dim per epoch, with the number of
 * epochs guessed from the planted (R̂/γ̂)² (an upper bound on updates, so on epochs − 1), capped by
 * maxEpochs. Only the batching uses it: a poor guess costs balance, never correctness.
 */
export function estimateRunCost(spec: RunSpec): number {
  const dim = spec.bias ? spec.d + 1 : spec.d;
  let epochs = 2;
  if (spec.generator === "planted") {
    const radius2 = spec.radius! ** 2 + (spec.bias ? 1 : 0);
    const margin2 = spec.margin! ** 2 / (spec.bias ? 1 + spec.offset! ** 2 : 1);
    epochs = Math.min(spec.maxEpochs, 1 + radius2 / margin2);
  }
  return spec.n * spec.d + spec.n * dim * epochs;
}

/** Groups consecutive runs into batches of about `targetCost` each (at least one run a batch). */
export function* makeBatches(runs: Iterable<RunSpec>, options: BatchOptions = DEFAULT_BATCH_OPTIONS): Generator<RunSpec[]> {
  let batch: RunSpec[] = [];
  let cost = 0;
  for (const spec of runs) {
    batch.push(spec);
    cost += estimateRunCost(spec);
    if (cost >= options.targetCost || batch.length >= options.maxRuns) {
      yield batch;
      batch = [];
      cost = 0;
    }
  }
  if (batch.length > 0) yield batch;
}
