import type { BoundsDeclaration, ProofFactorName } from "../bounds/bound-choice.js";
import type { BoundColumn, RatioColumn } from "../bounds/bound-columns.js";
import type { MaxMarginStatus } from "../bounds/max-margin-separator.js";
import type { DataVersion } from "../random/data-version.js";
import { RUN_KEYS, type PointParameters, type SeparatorName } from "../vocabulary/point-parameters.js";

// The shapes of a point, its keys and the separators live on the vocabulary floor; re-exported for this floor's readers.
export { beyondSeparable, pick, POINT_KEYS, RUN_KEYS, SEPARATORS, type PointParameters, type SeparatorName } from "../vocabulary/point-parameters.js";


/** The first key of a run's identity (RUN_KEYS: its place, seed and every parameter) on which a recorded row and a spec differ, or null: the same run. */
export function differingRunKey(row: RunRow, spec: RunSpec): (typeof RUN_KEYS)[number] | null {
  return RUN_KEYS.find((key) => row[key] !== spec[key]) ?? null;
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
  /** Whether to compute the max-margin separator. */
  readonly optimal: boolean;
  /** Which bounds to compute (the experiment's `bounds`): the manifest records it, the rows do not. */
  readonly bounds: BoundsDeclaration;
  /** How the run draws (docs/theory.md, "Data versions"): the manifest records it, the rows do not. */
  readonly dataVersion: DataVersion;
  /** The plug-in bounds it computes (docs/plugins.md), and "worstOrder" last where declared: their columns follow the tool's own (table-layout.ts); absent without. */
  readonly extraBounds?: readonly string[];
  /** The worst order's node budget; absent: the default (worst-order.ts). */
  readonly worstOrderBudget?: number;
}


export type { BoundColumn, RatioColumn } from "../bounds/bound-columns.js";
/** The proof's four factors of each separator (docs/theory.md, "Why a bound is loose"): plantedGainFactor, … */
export type FactorColumn = `${SeparatorName}${Capitalize<ProofFactorName>}Factor`;

/** optimalStatus: the max-margin solver's outcome, or "off" when the experiment turned it off. */
export type OptimalStatus = MaxMarginStatus | "off";

/** What a worker returns for one run: plain JSON-safe data, one row of runs.csv / runs.jsonl. */
export type RunRow = Omit<RunSpec, "maxEpochs" | "optimal" | "bounds" | "dataVersion" | "extraBounds" | "worstOrderBudget"> & {
  readonly status: "ok" | "error";
  /** The message of a run that threw; null when ok. */
  readonly error: string | null;
  readonly converged: boolean | null;
  readonly updates: number | null;
  readonly epochs: number | null;
  /** Mistakes in the first epoch, and in the last epoch the run made (0 when it converged). */
  readonly firstEpochMistakes: number | null;
  readonly lastEpochMistakes: number | null;
  /** Training points the final ŵ misclassifies (ŵ·u_i ≤ 0), and the fewest any epoch's ŵ did (the pocket). */
  readonly finalErrors: number | null;
  readonly pocketErrors: number | null;
  /** The exact count docs/theory.md predicts (structured families from ŵ(0) = 0), else null. */
  readonly expectedUpdates: number | null;
  /** R̂ = max_i ‖x̂_i‖, in the learner's coordinates. */
  readonly learnerRadius: number | null;
  /** true: linearly separable in the learner's coordinates (certified by a separating vector); false: the QP is infeasible. */
  readonly separable: boolean | null;
  /** Points on the planted hyperplane's wrong side (y(w·x + b) ≤ 0): label noise and overlap put them there. */
  readonly wrongSide: number | null;
  /** γ̂ of the planted separator in the learner's coordinates. */
  readonly plantedMargin: number | null;
  readonly optimalStatus: OptimalStatus | null;
  /** γ* of the max-margin separator, recomputed on the data from the solver's vector. */
  readonly optimalMargin: number | null;
  /** The smallest Hu D² and N(v) found over separators (ŵ(0) ≠ 0, with the max-margin separator), and their ratios. */
  readonly tightestHuBound: number | null;
  readonly tightestOptimisedBound: number | null;
  readonly tightestHuRatio: number | null;
  readonly tightestOptimisedRatio: number | null;
  /** The smallest bound that applies, over every separator. */
  readonly bestBound: number | null;
  readonly bestRatio: number | null;
  /**
   * Freund–Schapire at E = epochs, for ŵ(0) = 0 (docs/theory.md, "Beyond separable data"): along the planted
   * separator with its best γ, and the tightest over (u, γ); ratios updates/bound for every run, converged or not.
   */
  readonly plantedFreundSchapireBound: number | null;
  readonly tightestFreundSchapireBound: number | null;
  readonly plantedFreundSchapireRatio: number | null;
  readonly tightestFreundSchapireRatio: number | null;
  /**
   * The a-posteriori mistake-set bound (docs/theory.md, "Mistake-set bounds"), where `bounds` lists
   * mistakeSet: at the planted and the max-margin separator scaled to margin 1 (on noisy data, the planted
   * Freund–Schapire optimum), and at the tightest Freund–Schapire optimum; ratios updates/bound for every run.
   */
  readonly plantedMistakeSetBound: number | null;
  readonly optimalMistakeSetBound: number | null;
  readonly tightestMistakeSetBound: number | null;
  readonly plantedMistakeSetRatio: number | null;
  readonly optimalMistakeSetRatio: number | null;
  readonly tightestMistakeSetRatio: number | null;
  /** Bounds the run's updates exceed, plus 1 if it misses its expected count: a bug if ever above 0. */
  readonly violations: number | null;
  /** Columns whose value left float64's range (overflow, or 0/0 after an underflow), written empty; space-separated. */
  readonly nonFinite: string | null;
} & { readonly [K in BoundColumn]: number | null } & { readonly [K in RatioColumn]: number | null } & { readonly [K in FactorColumn]: number | null };
