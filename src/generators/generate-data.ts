import { newFloat64Array, type Float64Allocator } from "../math/scratch-array.js";
import type { Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { DataSets } from "./generator-entry.js";
import { generatorEntry } from "./generator-registry.js";

export type { DataSets };

/**
 * The data set of a grid point, drawn from the run's `data` stream (Draws of its data version; a bare
 * Uniform draws as data version 1) by its generator, or for a user's data its file's, from `dataSets`. The
 * planted generator writes its points into `allocate(n·d)` (see generatePlanted); the small structured
 * families allocate their own.
 */
export function generateData(p: PointParameters, source: Uniform | Draws, dataSets?: DataSets, allocate: Float64Allocator = newFloat64Array): DataSet {
  return generatorEntry(p.generator).generate(p, source, dataSets, allocate);
}
