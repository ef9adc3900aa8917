import type { BoundsDeclaration } from "../bounds/bound-choice.js";
import type { PresentationOrder } from "../perceptron/perceptron.js";
import type { DataVersion } from "../random/data-version.js";
import type { PluginInfo } from "../plugins/plugin-file.js";
import type { GeneratorName } from "./experiment-schema.js";

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

/** A validated experiment, every option resolved. */
export interface Experiment {
  readonly name: string;
  readonly description: string | null;
  readonly seed: number;
  readonly repeats: number;
  readonly maxEpochs: number;
  /** Whether every run computes the max-margin separator. */
  readonly optimal: boolean;
  /** Which bounds every run computes (docs/experiments.md, "Which bounds"): "default" or the names listed. */
  readonly bounds: BoundsDeclaration;
  /** How the runs draw (docs/theory.md, "Data versions"). */
  readonly dataVersion: DataVersion;
  readonly grids: readonly Grid[];
  /** Every data file the grids name, by name as written: where it was read, its SHA-256 and its shape. */
  readonly dataFiles: Readonly<Record<string, DataFileInfo>>;
  /** Its plug-in files (docs/plugins.md), by name as written: where each was loaded, its SHA-256, what it defines; absent without. */
  readonly plugins?: Readonly<Record<string, PluginInfo>>;
}

/** A data file of the csv generator, as read when the experiment was loaded. */
export interface DataFileInfo {
  /** The absolute path it was read from. */
  readonly path: string;
  /** SHA-256 of its bytes: resume and rerun refuse a file that changed. */
  readonly sha256: string;
  readonly n: number;
  readonly d: number;
}

export const EXPERIMENT_DEFAULTS = {
  seed: 1,
  repeats: 1,
  maxEpochs: 100_000,
  optimal: true,
  radius: 1,
  offset: 0,
  noise: 0,
  overlap: 0,
  eta: 1,
  init: "zero",
  order: "cyclic",
} as const;
