import { newFloat64Array, type Float64Allocator } from "../math/scratch-array.js";
import type { Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { PointParameters } from "../run/run-types.js";
import type { DataSet } from "./data-set.js";
import { generateHadamard } from "./hadamard.js";
import { generateOrthonormal } from "./orthonormal.js";
import { generatePlanted } from "./planted.js";
import { generateThreePoint } from "./three-point.js";

/** The data sets of the csv generator, by file name as the experiment writes it (read once, shared, never changed). */
export type DataSets = ReadonlyMap<string, DataSet>;

/**
 * The data set of a grid point, drawn from the run's `data` stream (Draws of its data version; a bare
 * Uniform draws as data version 1), or for the csv generator its file's, from `dataSets`. The planted
 * generator writes its points into `allocate(n·d)` (see generatePlanted); the small structured families
 * allocate their own.
 */
export function generateData(p: PointParameters, source: Uniform | Draws, dataSets?: DataSets, allocate: Float64Allocator = newFloat64Array): DataSet {
  switch (p.generator) {
    case "planted":
      return generatePlanted({ n: p.n, d: p.d, margin: p.margin!, radius: p.radius!, offset: p.offset!, noise: p.noise ?? 0, overlap: p.overlap ?? 0 }, source, allocate);
    case "orthonormal":
      return generateOrthonormal(p.n, source);
    case "hadamard":
      return generateHadamard(p.n, source);
    case "three-point":
      return generateThreePoint(p.c!);
    case "csv": {
      const data = dataSets?.get(p.data!);
      if (data === undefined) throw new Error(`the data of ${p.data} were not handed to this run (a bug)`);
      return data;
    }
  }
}
