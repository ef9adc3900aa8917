import { boundModes, wantedBounds } from "../bounds/bound-choice.js";
import { computeBounds, type BoundSet } from "../bounds/convergence-bounds.js";
import { freundSchapireBound } from "../bounds/freund-schapire.js";
import { separatorMargin } from "../bounds/separator-margin.js";
import type { DataSet } from "../vocabulary/data-set.js";
import { parseInit } from "../perceptron/initial-weights.js";
import { plantedSeparator, toLearnerCoordinates } from "../perceptron/learner-coordinates.js";
import { analyseDataSet } from "./analyse-data-set.js";
import { type RunSpec } from "./run-types.js";
import { beyondSeparable } from "../vocabulary/point-parameters.js";

/** A separator as written out: the vector as computed, its unit vector, its margin and its bounds for the run. */
export interface WrittenSeparator {
  /**
   * The separator as the sweep computed it, at its own scale (learner's coordinates, bias last): the margin
   * and the bounds below are this vector's, exactly as the row's (margins and bounds do not depend on the
   * scale), so an exact check from it and the data set certifies the row. JSON keeps every double exactly.
   */
  readonly vector: number[];
  /** vector / ‖vector‖, rounded: for reading, not for checking (its rounding moves the margin by an ulp or so). */
  readonly unit: number[];
  /** γ = min_i ŵ*·u_i/‖ŵ*‖, rounded down (negative: the vector does not separate). */
  readonly margin: number;
  readonly bounds: BoundSet;
}

/** w = u/γ of a Freund–Schapire bound, and the bound recomputed from it. */
export interface WrittenFreundSchapire {
  readonly w: number[];
  readonly unit: number[];
  /** γ = 1/‖w‖. */
  readonly gamma: number;
  readonly epochs: number;
  readonly bound: number;
}

export interface RunSeparators {
  readonly run: number;
  readonly seed: number;
  /** ŵ(0) of the run (learner's coordinates, bias last): with η, what Snapp's, Hu's and N(v)'s bounds read. */
  readonly initialWeights: number[];
  readonly updates: number;
  readonly epochs: number;
  readonly converged: boolean;
  readonly planted: WrittenSeparator | null;
  readonly maxMargin: WrittenSeparator | null;
  readonly tightestHu: WrittenSeparator | null;
  readonly tightestOptimised: WrittenSeparator | null;
  readonly plantedFreundSchapire: WrittenFreundSchapire | null;
  readonly tightestFreundSchapire: WrittenFreundSchapire | null;
}

/**
 * The separators behind a run's bounds, recomputed as the sweep computed them (the same analysis, so the
 * same vectors), for `dataset --separators`: a user can check each margin and bound from the vectors and
 * the data set `dataset` writes. Every number is recomputed here from the vector, as the row's were.
 */
export function runSeparators(spec: RunSpec, data: DataSet): RunSeparators {
  const modes = boundModes(spec.bounds);
  const init = parseInit(spec.init);
  const analysis = analyseDataSet(
    data,
    { bias: spec.bias, eta: spec.eta, init, order: spec.order, maxEpochs: spec.maxEpochs, seed: spec.seed, dataVersion: spec.dataVersion },
    { optimal: spec.optimal, bounds: modes, beyondSeparable: beyondSeparable(spec) },
  );
  // The bounds the sweep computed for the row, and no others: the file certifies the row as it is.
  const wanted = wantedBounds(modes);
  const learner = toLearnerCoordinates(data, spec.bias);
  const written = (vector: Float64Array | null | undefined): WrittenSeparator | null => {
    if (vector === null || vector === undefined) return null;
    const norm = euclidean(vector);
    const { margin, bounds } = computeBounds(learner, vector, spec.eta, analysis.initialWeights, wanted);
    return { vector: Array.from(vector), unit: Array.from(vector, (value) => value / norm), margin: Math.min(margin, separatorMargin(learner, vector).margin), bounds };
  };
  const epochs = analysis.perceptron.epochs;
  const fs = (entry: { w: Float64Array } | null | undefined): WrittenFreundSchapire | null => {
    if (entry === null || entry === undefined) return null;
    const norm = euclidean(entry.w);
    return { w: Array.from(entry.w), unit: Array.from(entry.w, (value) => (norm > 0 ? value / norm : 0)), gamma: 1 / norm, epochs, bound: freundSchapireBound(learner, entry.w, epochs) };
  };
  const maxMargin = analysis.maxMargin?.separator ?? null;
  return {
    run: spec.run,
    seed: spec.seed,
    initialWeights: Array.from(analysis.initialWeights),
    updates: analysis.perceptron.updates,
    epochs,
    converged: analysis.perceptron.converged,
    planted: written(plantedSeparator(data, spec.bias)),
    maxMargin: written(maxMargin),
    tightestHu: written(analysis.tightest?.hu?.separator),
    tightestOptimised: written(analysis.tightest?.optimised?.separator),
    plantedFreundSchapire: fs(analysis.freundSchapire?.planted),
    tightestFreundSchapire: fs(analysis.freundSchapire?.tightest),
  };
}

/** √(Σ x_j²), summed in order (Math.hypot is not specified to the last bit, and engines differ). */
function euclidean(vector: Float64Array): number {
  let sum = 0;
  for (const value of vector) sum += value * value;
  return Math.sqrt(sum);
}
