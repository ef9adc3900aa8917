import { computeBounds, type SeparatorBounds } from "../bounds/convergence-bounds.js";
import type { DataSet } from "../generators/data-set.js";
import { drawInitialWeights, type InitSpec } from "../perceptron/initial-weights.js";
import { plantedSeparator, toLearnerCoordinates } from "../perceptron/learner-coordinates.js";
import { trainPerceptron, type PerceptronResult, type PresentationOrder } from "../perceptron/perceptron.js";
import { createRandom } from "../random/seeded-random.js";

export interface LearnerOptions {
  readonly bias: boolean;
  readonly eta: number;
  readonly init: InitSpec;
  readonly order: PresentationOrder;
  readonly maxEpochs: number;
  /** Seeds the `init` and `order` streams. */
  readonly seed: number;
}

export interface Analysis {
  readonly perceptron: PerceptronResult;
  /** ŵ(0), bias last. */
  readonly initialWeights: Float64Array;
  /** R̂ = max_i ‖x̂_i‖. */
  readonly learnerRadius: number;
  /** Margin and bounds of the planted separator, null for data nobody planted. */
  readonly planted: SeparatorBounds | null;
}

/** The learner's side of a run: perceptron → bounds, on a data set however it was obtained. */
export function analyseDataSet(data: DataSet, options: LearnerOptions): Analysis {
  const learner = toLearnerCoordinates(data, options.bias);
  const initialWeights = drawInitialWeights(options.init, learner.dim, createRandom(options.seed, "init"));
  const perceptron = trainPerceptron(learner, {
    eta: options.eta,
    initialWeights,
    order: options.order,
    maxEpochs: options.maxEpochs,
    random: createRandom(options.seed, "order"),
  });
  const separator = plantedSeparator(data, options.bias);
  return {
    perceptron,
    initialWeights,
    learnerRadius: Math.sqrt(learner.radiusSquared),
    planted: separator === null ? null : computeBounds(learner, separator, options.eta, initialWeights),
  };
}
