import type { Grid } from "../vocabulary/grid.js";
import type { Float64Allocator } from "../math/scratch-array.js";
import type { Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";
import type { DataSet } from "../vocabulary/data-set.js";

/** The data sets of the csv generator, by file name as the experiment writes it (read once, shared, never changed). */
export type DataSets = ReadonlyMap<string, DataSet>;

/** The grid keys a generator may make its own, beyond n and d: its points carry them, the others are null. */
export type FamilyKey = "data" | "margin" | "radius" | "offset" | "noise" | "overlap" | "c";

/** The grid as a generator reads it: each key's values (null where the grid does not give them). */
export type GridValues = Pick<Grid, "data" | "n" | "d" | FamilyKey>;

/** A rule the grid's values break, found when the experiment is loaded: the key, the item, why. */
export interface GridProblem {
  readonly key: FamilyKey;
  readonly index: number;
  readonly message: string;
}

/**
 * What the pipeline knows of a generator, declared in the generator's own module (docs/architecture.md,
 * "Registries"): the planner, the experiment's schema and rules, the runs, the tables and the report ask
 * the registry (generator-registry.ts) and never name a generator.
 */
export interface GeneratorEntry {
  readonly name: string;
  /** One line for the schema's description and the docs. */
  readonly description: string;
  /** The grid keys it needs (no default serves it). */
  readonly required: readonly ("n" | "d" | "margin" | "c" | "data")[];
  /** The keys its points carry (swept from the grid); every other of FamilyKey is null in its points. */
  readonly keys: readonly FamilyKey[];
  /**
   * Its value of a key it carries where the grid does not give the key (noise: 0 for the planted family); a
   * key without one is null in its points unless given (a data file's noise: its runs of 0.9 stay as they were).
   */
  readonly keyDefaults?: Partial<Record<FamilyKey, number>>;
  /** Whether it takes n and d from the grid (a data file's generator takes them from the file). */
  readonly sized: boolean;
  /**
   * Whether its data depend on the run's seed. Where they do not (a fixed family, a data file), runs from
   * ŵ(0) = 0 in the cyclic order draw nothing at all: their repeats are one run, repeated.
   */
  readonly seeded: boolean;
  /** Whether the learner has a bias where the grid does not say. */
  readonly defaultBias: boolean;
  /** The (data, n, d) of its points from the grid: the sizes given, fixed or derived, or a data file's. */
  shapes(grid: GridValues, files: Readonly<Record<string, { readonly n: number; readonly d: number }>>): Iterable<{ readonly data: string | null; readonly n: number; readonly d: number }>;
  /** Rules between the grid's values that no point could satisfy (checked when the experiment is loaded). */
  gridProblems?(grid: GridValues): GridProblem[];
  /** The rule of docs/theory.md a point breaks (the point is skipped and counted), or null. */
  exclusionReason(p: PointParameters): string | null;
  /** The parameters that define its data set: with the experiment's seed and the repeat, they make the run's seed. */
  dataParameters(p: PointParameters): Record<string, unknown>;
  /** The data set of a point, from the run's `data` stream (or the shared files). */
  generate(p: PointParameters, source: Uniform | Draws, dataSets: DataSets | undefined, allocate: Float64Allocator): DataSet;
  /** The exact number of updates docs/theory.md predicts, where float64 reproduces it; else null. */
  expectedUpdates(p: PointParameters): number | null;
  /** Whether a converged run meets (R/γ*)² of the max-margin separator exactly (its ratio is 1). */
  readonly tight: boolean;
  /** Whether it writes its points into the run's resident arrays (otherwise it allocates them, or shares a file's). */
  readonly resident: boolean;
  /** A guess of a run's epochs, for batching and sharding only (a poor guess costs balance, never correctness). */
  epochsGuess(p: PointParameters, maxEpochs: number): number;
  /**
   * The epochs a run typically makes, for the shards' split (model 2, estimate-run-cost.ts); epochsGuess where
   * absent. An upper bound on updates (epochsGuess's planted guess) overstates small margins ~100×.
   */
  epochsTypical?(p: PointParameters, maxEpochs: number): number;
  /**
   * Its family in the report: "planted" (margins, dimensions, noise: the tightness and Freund–Schapire plots),
   * "structured" (an exact count to meet), "half-ratio" (a ratio to (R/γ)² that tends to ½: the three-point family), "data" (a user's data sets).
   */
  readonly plotFamily: "planted" | "structured" | "half-ratio" | "data";
  /**
   * What it says of the grid's keys, for the experiment schema's descriptions (assembled from the registry):
   * what a key means to it (`c`: "the three-point family's c: …"), or how it treats one it fixes or derives
   * (`d`: "follows from n (d = n)"). A key it requires is said required by it without a note.
   */
  readonly keyNotes?: Partial<Record<"n" | "d" | FamilyKey, string>>;
  /** Its exact count in words, where expectedUpdates gives one ("n", "1 + ⌊c²/2⌋"): the report's caption says it. */
  readonly expectedRule?: string;
  /** What a grid point's `margin` column holds for it (the printed table's footer), where it has one. */
  readonly marginMeaning?: string;
  /**
   * A plot of its own in the report: its ratio updates / (R/γ)² against one of its keys, with theory's curve
   * (drawn as a function, not through the swept values) and its limit.
   */
  readonly familyPlot?: FamilyPlot;
}

/** A generator's own plot (GeneratorEntry.familyPlot): its file name, words, and theory's ratio. */
export interface FamilyPlot {
  /** plots/<name>.svg and plots/<name>.vl.json. */
  readonly name: string;
  readonly title: string;
  /** The caption's first sentence: what one mark is, and what the curve and the rule are. */
  readonly caption: string;
  /** The key on the x axis. */
  readonly x: FamilyKey;
  /** Theory's ratio updates / (R/γ)² at x (docs/theory.md). */
  readonly ratio: (x: number) => number;
  /** Where the ratio tends as x grows. */
  readonly limit: number;
}
