import type { BoundsDeclaration } from "../bounds/bound-choice.js";
import type { DataVersion } from "../random/data-version.js";
import type { RunTableName } from "../vocabulary/result-files.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";
import type { Grid } from "../vocabulary/grid.js";

export type { Grid } from "../vocabulary/grid.js";


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
  /** The worst order's node budget a run (bounds: worstOrder; docs/theory.md, "The worst order"); absent: the default. */
  readonly worstOrderBudget?: number;
  /** The run tables its folder keeps (runs.parquet among them); absent: every one (DEFAULT_RUN_TABLES). */
  readonly tables?: readonly RunTableName[];
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

export { EXPERIMENT_DEFAULTS } from "../vocabulary/experiment-defaults.js";
