import { beyondSeparable, type PointParameters } from "../run/run-types.js";

/**
 * A rough cost of one run in multiply-adds: generation (n·d) plus n·dim per epoch, with the number of
 * epochs guessed from the planted (R̂/γ̂)² (an upper bound on updates, so on epochs − 1), capped by
 * maxEpochs. Only the batching and the sharding use it: a poor guess costs balance, never correctness.
 */
export function estimateRunCost(p: PointParameters, maxEpochs: number): number {
  const dim = p.bias ? p.d + 1 : p.d;
  let epochs = 2;
  if (p.generator === "planted") {
    // (R̂/γ̂)² = ((R/γ)² + [bias]/γ²)·(1 + b²) (docs/theory.md, "Generators"), as ratios: squaring R and γ first
    // overflows to Infinity/Infinity = NaN beyond ~1e154, and a NaN cost would batch no run at all.
    const ratio = p.radius! / p.margin!;
    const bound = (ratio * ratio + (p.bias ? 1 / p.margin! ** 2 : 0)) * (p.bias ? 1 + p.offset! ** 2 : 1);
    epochs = Number.isNaN(bound) ? maxEpochs : Math.min(maxEpochs, 1 + bound);
    // Label noise or overlap usually leave the data not separable: the run goes to maxEpochs, and is then
    // replayed for its pocket error (twice the epochs).
    if (beyondSeparable(p)) epochs = 2 * maxEpochs;
  } else if (p.generator === "csv") {
    // A user's data: no margin is known before the run (and it may not be separable). A guess of 100
    // epochs keeps batches of such runs short; a wrong guess costs balance only.
    epochs = Math.min(maxEpochs, 100);
  }
  return p.n * p.d + p.n * dim * epochs;
}
