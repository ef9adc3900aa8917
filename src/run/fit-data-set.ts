import type { DataSet } from "../generators/data-set.js";
import { formatInit } from "../perceptron/initial-weights.js";
import { analyseDataSet, type LearnerOptions } from "./analyse-data-set.js";

/** What `fit` reports for one perceptron run on a given data set. */
export interface FitReport {
  readonly n: number;
  readonly d: number;
  readonly bias: boolean;
  readonly eta: number;
  readonly init: string;
  readonly order: string;
  readonly seed: number;
  readonly maxEpochs: number;
  readonly updates: number;
  readonly epochs: number;
  readonly converged: boolean;
  /** Final ŵ, bias last. */
  readonly weights: number[];
  readonly initialWeights: number[];
  /** R̂ = max_i ‖x̂_i‖ in the learner's coordinates. */
  readonly radius: number;
  /** The bounds need a separator: data nobody planted need the max-margin one, not computed yet. */
  readonly bounds: null;
  readonly note: string;
}

export function fitDataSet(data: DataSet, options: LearnerOptions): FitReport {
  const analysis = analyseDataSet(data, options);
  const { updates, epochs, converged, weights } = analysis.perceptron;
  return {
    n: data.n,
    d: data.d,
    bias: options.bias,
    eta: options.eta,
    init: formatInit(options.init),
    order: options.order,
    seed: options.seed,
    maxEpochs: options.maxEpochs,
    updates,
    epochs,
    converged,
    weights: Array.from(weights),
    initialWeights: Array.from(analysis.initialWeights),
    radius: analysis.learnerRadius,
    bounds: null,
    note: "the bounds need the margin of a separating vector; for data nobody planted that is the max-margin separator, which this version does not compute yet",
  };
}
