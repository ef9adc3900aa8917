import { ALL_BOUNDS } from "../bounds/bound-choice.js";
import type { BoundSet } from "../bounds/convergence-bounds.js";
import type { ProofFactors } from "../bounds/proof-factors.js";
import type { DataSet } from "../vocabulary/data-set.js";
import { formatInit } from "../perceptron/initial-weights.js";
import { LATEST_DATA_VERSION, type DataVersion } from "../random/data-version.js";
import { analyseDataSet, type LearnerOptions } from "./analyse-data-set.js";
import { countViolations, exceeds } from "./execute-run.js";
import { replaceNonFinite } from "./non-finite.js";
import type { OptimalStatus } from "./run-types.js";

/** What `fit` reports for one perceptron run on a given data set. */
export interface FitReport {
  readonly n: number;
  readonly d: number;
  readonly bias: boolean;
  readonly eta: number;
  readonly init: string;
  readonly order: string;
  readonly seed: number;
  /** How a random init and a shuffled order were drawn from the seed. */
  readonly dataVersion: DataVersion;
  readonly maxEpochs: number;
  readonly updates: number;
  readonly epochs: number;
  readonly converged: boolean;
  /** Final ŵ, bias last. */
  readonly weights: number[];
  readonly initialWeights: number[];
  /** R̂ = max_i ‖x̂_i‖ in the learner's coordinates. */
  readonly radius: number;
  /** γ* of the max-margin separator, recomputed on the data; null when none was found. */
  readonly margin: number | null;
  /** The dual's upper bound on γ* (weak duality). */
  readonly marginUpperBound: number | null;
  /** true: a separating vector is known; false: the QP is infeasible; null: unknown. */
  readonly separable: boolean | null;
  readonly optimalStatus: OptimalStatus;
  /** Why the max-margin separator is not certified optimal, or null. */
  readonly note: string | null;
  /** The bounds of docs/theory.md from the max-margin separator, for this η and ŵ(0); null without one. */
  readonly bounds: BoundSet | null;
  /** The smallest Hu D² and N(v) found over separators (null without a max-margin separator, or above the size limit). */
  readonly tightestHuBound: number | null;
  readonly tightestOptimisedBound: number | null;
  /** Freund–Schapire at E = epochs over every (u, γ), from ŵ(0) = 0 only (docs/theory.md, "Beyond separable data"). */
  readonly freundSchapireBound: number | null;
  /**
   * Why (R/γ*)² is loose on this run (docs/theory.md, "Why a bound is loose"): the proof's four factors for
   * the max-margin separator, from ŵ(0) = 0 with at least one update; null otherwise.
   */
  readonly factors: ProofFactors | null;
  /**
   * The a-posteriori mistake-set bound (docs/theory.md) on this run's update rounds: at the max-margin
   * separator scaled to margin 1, and at the tightest Freund–Schapire optimum (ŵ(0) = 0); a certificate, not a prediction.
   */
  readonly mistakeSetBound: number | null;
  readonly tightestMistakeSetBound: number | null;
  /** Mistakes in the first and in the last epoch; training points the final ŵ and the pocket (best epoch's ŵ) misclassify. */
  readonly firstEpochMistakes: number;
  readonly lastEpochMistakes: number;
  readonly finalErrors: number;
  readonly pocketErrors: number;
  /**
   * With `worstOrder`: the most updates any presentation order makes on these data from the same ŵ(0) and η
   * (docs/theory.md, "The worst order"), and the longest order found, as the points (rows of the data, from 0)
   * updated in turn; null where not asked for or no separator is proved to separate.
   */
  readonly worstOrder: { readonly status: "exact" | "bracket"; readonly lower: number; readonly upper: number; readonly nodes: number; readonly order: number[] } | null;
  /** Bounds the updates exceed: a bug if ever above 0. */
  readonly violations: number;
  /** Quantities that left float64's range (reported as null). */
  readonly nonFinite: string[];
}

/** Every bound, a-priori and a-posteriori: fit is one run. */
const FIT_BOUNDS = { ...ALL_BOUNDS, factors: "always", mistakeSet: "always" } as const;

/** One perceptron run on a data set, with every bound from its max-margin separator; with `worstOrder`, W* too (its node budget). */
export function fitDataSet(data: DataSet, options: LearnerOptions, worstOrder?: { readonly budget?: number }): FitReport {
  const analysis = analyseDataSet(data, options, {
    bounds: worstOrder === undefined ? FIT_BOUNDS : { ...FIT_BOUNDS, worstOrder: "always" },
    worstOrderBudget: worstOrder?.budget,
  });
  const worst = analysis.worstOrder;
  const { updates, epochs, converged, weights } = analysis.perceptron;
  const bounds = analysis.optimal?.bounds ?? null;
  const tightestHu = analysis.tightest?.hu?.bound ?? null;
  const tightestOptimised = analysis.tightest?.optimised?.bound ?? null;
  const freundSchapire = analysis.freundSchapire?.tightest?.bound ?? null;
  const mistakeSet = analysis.aPosteriori?.mistakeSet ?? null;
  const report = {
    n: data.n,
    d: data.d,
    bias: options.bias,
    eta: options.eta,
    init: formatInit(options.init),
    order: options.order,
    seed: options.seed,
    dataVersion: options.dataVersion ?? LATEST_DATA_VERSION,
    maxEpochs: options.maxEpochs,
    updates,
    epochs,
    converged,
    weights: Array.from(weights),
    initialWeights: Array.from(analysis.initialWeights),
    radius: analysis.learnerRadius,
    margin: analysis.optimal?.margin ?? null,
    marginUpperBound: analysis.maxMargin?.marginUpperBound ?? null,
    separable: analysis.separable,
    optimalStatus: analysis.optimalStatus,
    note: analysis.maxMargin?.message ?? null,
    bounds,
    tightestHuBound: tightestHu,
    tightestOptimisedBound: tightestOptimised,
    freundSchapireBound: freundSchapire,
    factors: analysis.aPosteriori?.factors?.optimal ?? null,
    mistakeSetBound: mistakeSet?.optimal ?? null,
    tightestMistakeSetBound: mistakeSet?.tightest ?? null,
    firstEpochMistakes: analysis.perceptron.firstEpochMistakes,
    lastEpochMistakes: analysis.perceptron.lastEpochMistakes,
    finalErrors: analysis.finalErrors,
    pocketErrors: analysis.pocketErrors,
    worstOrder: worst === null ? null : { status: worst.status, lower: worst.lower, upper: worst.upper, nodes: worst.nodes, order: Array.from(worst.order) },
    violations:
      (converged && worst !== null && updates > worst.upper ? 1 : 0) +
      countViolations(updates, bounds) +
      [tightestHu, tightestOptimised, freundSchapire, mistakeSet?.optimal ?? null, mistakeSet?.tightest ?? null].filter((bound) => exceeds(updates, bound)).length,
  };
  // Radius, margin and bounds can overflow (or be 0/0 after an underflow) on extreme data.
  const top = replaceNonFinite(report);
  const inner = bounds === null ? null : replaceNonFinite(bounds);
  const factors = report.factors === null ? null : replaceNonFinite(report.factors);
  const nonFinite = [...top.names, ...(inner?.names.map((name) => `bounds.${name}`) ?? []), ...(factors?.names.map((name) => `factors.${name}`) ?? [])];
  return { ...top.record, bounds: inner?.record ?? null, factors: factors?.record ?? null, nonFinite } as FitReport;
}
