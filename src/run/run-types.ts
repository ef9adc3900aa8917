import type { BoundName } from "../bounds/convergence-bounds.js";
import type { GeneratorName } from "../experiment/experiment-schema.js";
import type { PresentationOrder } from "../perceptron/perceptron.js";

/** The parameters of one grid point; null where the generator does not use the key. */
export interface PointParameters {
  readonly generator: GeneratorName;
  readonly n: number;
  readonly d: number;
  readonly margin: number | null;
  readonly radius: number | null;
  readonly offset: number | null;
  readonly bias: boolean;
  readonly eta: number;
  readonly init: string;
  readonly order: PresentationOrder;
}

/** What the coordinator sends a worker for one run: the parameters and the seed, never data. */
export interface RunSpec extends PointParameters {
  /** Position in the sweep, from 0. */
  readonly run: number;
  /** Index of the grid in the experiment's list of grids, from 0. */
  readonly grid: number;
  /** Index of the grid point in the sweep (over all grids), from 0. */
  readonly point: number;
  /** Repeat index within the grid point, from 0. */
  readonly repeat: number;
  readonly seed: number;
  readonly maxEpochs: number;
}

export type BoundColumn = `planted${Capitalize<BoundName>}Bound`;
export type RatioColumn = `planted${Capitalize<BoundName>}Ratio`;

/** What a worker returns for one run: plain JSON-safe data, one row of runs.csv / runs.jsonl. */
export type RunRow = Omit<RunSpec, "maxEpochs"> & {
  readonly status: "ok" | "error";
  /** The message of a run that threw; null when ok. */
  readonly error: string | null;
  readonly converged: boolean | null;
  readonly updates: number | null;
  readonly epochs: number | null;
  /** R̂ = max_i ‖x̂_i‖, in the learner's coordinates. */
  readonly learnerRadius: number | null;
  /** γ̂ of the planted separator in the learner's coordinates. */
  readonly plantedMargin: number | null;
  /** Bounds the run's updates exceed (a converged run only): a bug if ever above 0. */
  readonly violations: number | null;
} & { readonly [K in BoundColumn]: number | null } & { readonly [K in RatioColumn]: number | null };
