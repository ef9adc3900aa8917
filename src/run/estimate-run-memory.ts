import type { RunSpec } from "./run-types.js";

/**
 * The bytes of the typed arrays a run allocates for its data, which live outside V8's heap and so escape
 * the worker's heap limit: the generated points x (n·d doubles) and the learner's vectors u (n·dim, with
 * dim = d + 1 with a bias), then the WebAssembly module's memory, which holds the largest layout of any of
 * its calls (the learner's coordinates: x, the labels, u and their squares, n·(d + dim + 2) doubles; the
 * epochs, the generator's and the bounds' row passes take less), and the labels and the presentation order
 * (5 bytes a point). Vectors of length d or dim are left out: they are small beside these.
 */
export function estimateRunMemory(spec: Pick<RunSpec, "generator" | "n" | "d" | "bias">): number {
  const d = spec.generator === "three-point" ? 1 : spec.d;
  const n = spec.generator === "three-point" ? 3 : spec.n;
  const dim = spec.bias ? d + 1 : d;
  return 8 * n * (d + dim) + 8 * n * (d + dim + 2) + 5 * n;
}
