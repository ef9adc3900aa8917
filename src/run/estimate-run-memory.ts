import { generatorEntry } from "../generators/generator-registry.js";
import type { RunSpec } from "./run-types.js";

type Sizes = Pick<RunSpec, "generator" | "n" | "d" | "bias">;

/**
 * The bytes of the typed arrays a run allocates for its data, which live outside V8's heap and so escape
 * the worker's heap limit: those of residentBytes in the WebAssembly module's memory (in TypeScript the
 * points and the learner's vectors alone, less), the points of the generators that do not write them there
 * (which make their own array, or share a file's), and the labels and the presentation order (5 bytes a point).
 */
export function estimateRunMemory(spec: Sizes): number {
  const { n, d } = sizes(spec);
  return residentBytes(spec) + (generatorEntry(spec.generator).resident ? 0 : 8 * n * d) + 5 * n;
}

/**
 * The module's memory a run takes past its first free byte (executeRun's ResidentArrays): n·(d + dim)
 * doubles and the largest layout of a call past them, 5n + 2·dim doubles with 16 bytes of alignment for
 * each array (dim = d + 1 with a bias). The planted generator writes the points x (n·d) there, and the
 * learner's vectors u (n·dim) follow; then the generator's draw in the module takes four n-vectors, w, v₀ and the labels, the
 * learner's coordinates the labels and the squares, the epochs ŵ and the order, a bound's row pass up to
 * two n-vectors and a dim-vector. Other generators' points are copied in for the learner's coordinates,
 * past u, in the room the planted generator's x takes.
 */
export function residentBytes(spec: Sizes): number {
  const { n, d, dim } = sizes(spec);
  return 8 * n * (d + dim) + 8 * (5 * n + 2 * dim) + 16 * 8;
}

function sizes({ n, d, bias }: Sizes): { n: number; d: number; dim: number } {
  return { n, d, dim: bias ? d + 1 : d };
}
