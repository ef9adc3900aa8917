import { computeBounds, type SeparatorBounds } from "../bounds/convergence-bounds.js";
import { maxMarginSeparator, type MaxMarginResult } from "../bounds/max-margin-separator.js";
import type { DataSet } from "../generators/data-set.js";
import { drawInitialWeights, type InitSpec } from "../perceptron/initial-weights.js";
import { plantedSeparator, toLearnerCoordinates } from "../perceptron/learner-coordinates.js";
import type { PerceptronResult, PresentationOrder } from "../perceptron/perceptron.js";
import { checkFloat64Range } from "../perceptron/float64-range.js";
import { runPerceptron } from "../perceptron/perceptron-kernel.js";
import { LATEST_DATA_VERSION, type DataVersion } from "../random/data-version.js";
import { createDraws } from "../random/random-draws.js";
import type { OptimalStatus } from "./run-types.js";

export interface LearnerOptions {
  readonly bias: boolean;
  readonly eta: number;
  readonly init: InitSpec;
  readonly order: PresentationOrder;
  readonly maxEpochs: number;
  /** Seeds the `init` and `order` streams. */
  readonly seed: number;
  /** How those streams draw (THEORY.md, "Data versions"); default the latest. */
  readonly dataVersion?: DataVersion;
}

export interface AnalysisOptions {
  /** Compute the max-margin separator (default true). */
  readonly optimal?: boolean;
}

export interface Analysis {
  readonly perceptron: PerceptronResult;
  /** ŵ(0), bias last. */
  readonly initialWeights: Float64Array;
  /** R̂ = max_i ‖x̂_i‖. */
  readonly learnerRadius: number;
  /** Margin and bounds of the planted separator, null for data nobody planted. */
  readonly planted: SeparatorBounds | null;
  /** Margin and bounds of the max-margin separator, null when it was not computed or not found. */
  readonly optimal: SeparatorBounds | null;
  readonly optimalStatus: OptimalStatus;
  /** The solver's own account, with its message when it is not "optimal". */
  readonly maxMargin: MaxMarginResult | null;
  /**
   * true when a separating vector is known (the perceptron converged, the planted one separates, or the solver found one),
   * false when the QP is infeasible, null when neither is known.
   */
  readonly separable: boolean | null;
}

/** The learner's side of a run: perceptron → separators → bounds, on a data set however it was obtained. */
export function analyseDataSet(data: DataSet, options: LearnerOptions, analysis: AnalysisOptions = {}): Analysis {
  const learner = toLearnerCoordinates(data, options.bias);
  // A stream is seeded only when it is drawn from (seeding costs about a microsecond): a zero or explicit
  // init and a cyclic order draw nothing. Streams are independent, so this changes no number.
  const version = options.dataVersion ?? LATEST_DATA_VERSION;
  const initialWeights = drawInitialWeights(options.init, learner.dim, () => createDraws(options.seed, "init", version));
  const perceptron = runPerceptron(learner, {
    eta: options.eta,
    initialWeights,
    order: options.order,
    maxEpochs: options.maxEpochs,
    random: options.order === "shuffle" ? createDraws(options.seed, "order", version).uniform : undefined,
  });
  checkFloat64Range(learner, options.eta, initialWeights, perceptron.updates);
  const bounds = (separator: Float64Array) => computeBounds(learner, separator, options.eta, initialWeights);
  const planted = plantedSeparator(data, options.bias);
  const plantedBounds = planted === null ? null : bounds(planted);
  // A vector known to separate keeps the solver from calling separable data infeasible where it fails
  // numerically (three-point with c = 1e10: the perceptron stops at maxEpochs, quadprog gives up).
  const known = perceptron.converged ? perceptron.weights : planted !== null && plantedBounds!.margin > 0 ? planted : undefined;
  const certificate = known === undefined ? {} : { separating: known };
  const maxMargin = analysis.optimal === false ? null : maxMarginSeparator(learner, certificate);
  const optimal = maxMargin?.separator ? bounds(maxMargin.separator) : null;
  let separable: boolean | null = null;
  if (known !== undefined || optimal !== null) separable = true;
  else if (maxMargin?.status === "infeasible") separable = false;
  return {
    perceptron,
    initialWeights,
    learnerRadius: Math.sqrt(learner.radiusSquared),
    planted: plantedBounds,
    optimal,
    optimalStatus: maxMargin?.status ?? "off",
    maxMargin,
    separable,
  };
}
