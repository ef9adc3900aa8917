import type { RunSpec } from "../run/run-types.js";

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
