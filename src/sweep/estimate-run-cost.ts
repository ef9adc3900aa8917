import type { PointParameters } from "../run/run-types.js";

/**
 * A rough cost of one run in multiply-adds: generation (n·d) plus n·dim per epoch, with the number of
 * epochs guessed from the planted (R̂/γ̂)² (an upper bound on updates, so on epochs − 1), capped by
 * maxEpochs. Only the batching and the sharding use it: a poor guess costs balance, never correctness.
 */
export function estimateRunCost(p: PointParameters, maxEpochs: number): number {
  const dim = p.bias ? p.d + 1 : p.d;
  let epochs = 2;
  if (p.generator === "planted") {
    const radius2 = p.radius! ** 2 + (p.bias ? 1 : 0);
    const margin2 = p.margin! ** 2 / (p.bias ? 1 + p.offset! ** 2 : 1);
    epochs = Math.min(maxEpochs, 1 + radius2 / margin2);
  }
  return p.n * p.d + p.n * dim * epochs;
}
