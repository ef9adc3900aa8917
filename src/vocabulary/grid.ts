import type { GeneratorName, PresentationOrder } from "./point-parameters.js";

/** One grid with every default filled in: each key is a non-empty list (null: not given, derived per generator). */
export interface Grid {
  readonly generator: readonly GeneratorName[];
  /** The csv generator's data files, as written (keys of Experiment.dataFiles); null when not given. */
  readonly data: readonly string[] | null;
  /** null: not given (three-point has n = 3). */
  readonly n: readonly number[] | null;
  /** null: d follows from n (structured families only). */
  readonly d: readonly number[] | null;
  /** null: not given (only the structured families may go without). */
  readonly margin: readonly number[] | null;
  readonly radius: readonly number[];
  readonly offset: readonly number[];
  /** Label noise (flip probability; planted and csv data), null when not given; planted overlap depth. */
  readonly noise: readonly number[] | null;
  readonly overlap: readonly number[];
  /** The three-point family's c; null when not given. */
  readonly c: readonly number[] | null;
  /** null: each generator's natural choice (planted and hadamard with, orthonormal without). */
  readonly bias: readonly boolean[] | null;
  readonly eta: readonly number[];
  readonly init: readonly string[];
  readonly order: readonly PresentationOrder[];
}
