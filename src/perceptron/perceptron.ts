import type { Uniform } from "../random/seeded-random.js";
import type { LearnerData } from "./learner-data.js";
import { allFinite } from "../math/array-tests.js";

import type { PresentationOrder } from "../vocabulary/point-parameters.js";

export type { PresentationOrder } from "../vocabulary/point-parameters.js";

export interface PerceptronOptions {
  /** The increment η > 0. */
  readonly eta: number;
  /** ŵ(0), of length `dim`; it is copied, never modified. */
  readonly initialWeights: Float64Array;
  readonly order: PresentationOrder;
  readonly maxEpochs: number;
  /** Draws the permutation of every epoch; needed only for `shuffle`. */
  readonly random?: Uniform;
  /**
   * Called after every epoch that made a mistake, with ŵ as it stands then (a view: read it, do not keep
   * or change it) and the epoch's number from 1. The pocket error (analyse-data-set.ts) replays a run with it.
   * Under the WebAssembly kernel ŵ and the data are in the module's memory: what the callback calls of
   * the module meanwhile (rowDots, toLearnerCoordinates, the planted generator, another perceptron) runs
   * in TypeScript instead, with the same results.
   */
  readonly onEpoch?: (weights: Float64Array, epoch: number) => void;
  /**
   * Where to count the updates point by point (length n, added to: pass zeros): counts[i] += 1 for each
   * update on point i. The a-posteriori bounds need them (docs/theory.md, "Mistake-set bounds"); a run
   * that does not ask pays nothing for them.
   */
  readonly counts?: Int32Array;
  /** v·u_i of every row for the separator the least-progress order attacks (adversarial-orders.ts); only that order reads it. */
  readonly progress?: ArrayLike<number>;
}

export interface PerceptronResult {
  /** k of every bound: the number of weight changes. */
  readonly updates: number;
  /** Passes over the data, including the final clean pass; maxEpochs when not converged. */
  readonly epochs: number;
  readonly converged: boolean;
  /** Mistakes (= updates) in the first epoch and in the last one the run made (0 when it converged). */
  readonly firstEpochMistakes: number;
  readonly lastEpochMistakes: number;
  /** The final ŵ, bias last. */
  readonly weights: Float64Array;
  /**
   * Under an adversarial order, the most updates on any one point: a point is presented only when it is
   * updated, so the Freund–Schapire bound's E is this, not the epochs. Absent for cyclic and shuffled runs.
   */
  readonly mostUpdatesOnAPoint?: number;
}

/**
 * The fixed-increment perceptron of docs/theory.md ("The algorithm"), on the learner's vectors u_i:
 * an epoch presents every i once (cyclic: 0..n−1; shuffle: a fresh seeded permutation each epoch) and
 * updates ŵ += η u_i whenever ŵ·u_i <= 0. Never "< 0": from ŵ(0) = 0 that rule would never update, and
 * integer data hit exact zeros. An epoch with no mistake ends the run (and is counted).
 */
export function trainPerceptron(data: LearnerData, options: PerceptronOptions): PerceptronResult {
  const { n, dim, u } = data;
  const { eta, order, maxEpochs } = options;
  if (order !== "cyclic" && order !== "shuffle") throw new TypeError(`the ${order} order picks among mistakes: run it with runPerceptron (perceptron-kernel.ts)`);
  const random = checkOptions(data, options);
  const counts = options.counts;
  const w = Float64Array.from(options.initialWeights);
  const permutation = new Int32Array(n);
  for (let i = 0; i < n; i++) permutation[i] = i;

  let updates = 0;
  let first = 0;
  let mistakes = 0;
  for (let epoch = 1; epoch <= maxEpochs; epoch++) {
    if (order === "shuffle") shuffleInPlace(permutation, random!);
    mistakes = 0;
    for (let k = 0; k < n; k++) {
      const point = permutation[k]!;
      const row = point * dim;
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += w[j]! * u[row + j]!;
      // dot <= 0, written so that NaN lands here too: an overflow (∞ − ∞) must not pass for a correct
      // classification. The NaN test runs only on mistakes, so correct points pay nothing for it.
      if (!(dot > 0)) {
        if (dot !== dot) throw overflowError(updates + mistakes);
        for (let j = 0; j < dim; j++) w[j]! += eta * u[row + j]!;
        if (counts !== undefined) counts[point]!++;
        mistakes++;
      }
    }
    updates += mistakes;
    if (epoch === 1) first = mistakes;
    if (mistakes === 0) {
      if (!allFinite(w)) throw overflowError(updates);
      return { updates, epochs: epoch, converged: true, firstEpochMistakes: first, lastEpochMistakes: 0, weights: w };
    }
    options.onEpoch?.(w, epoch);
  }
  return { updates, epochs: maxEpochs, converged: false, firstEpochMistakes: first, lastEpochMistakes: mistakes, weights: w };
}

/** The checks every kernel makes before its first epoch; returns the order's random stream. */
export function checkOptions(data: LearnerData, options: PerceptronOptions): Uniform | undefined {
  if (options.initialWeights.length !== data.dim) {
    throw new RangeError(`initial weights have length ${options.initialWeights.length}, expected ${data.dim}`);
  }
  if (options.order === "shuffle" && options.random === undefined) throw new TypeError("a shuffled order needs a random stream");
  if (options.order === "random-mistake" && options.random === undefined) throw new TypeError("the random-mistake order needs a random stream");
  if (options.counts !== undefined && options.counts.length !== data.n) throw new RangeError(`update counts have length ${options.counts.length}, expected ${data.n}`);
  return options.random;
}

/** Fisher–Yates: a uniformly random permutation of the current one. */
export function shuffleInPlace(values: Int32Array, random: Uniform): void {
  for (let i = values.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    const tmp = values[i]!;
    values[i] = values[j]!;
    values[j] = tmp;
  }
}

/** The run left float64's range: its count would be meaningless. */
export class NumericalRangeError extends RangeError {
  override readonly name = "NumericalRangeError";
}

export function overflowError(updates: number): NumericalRangeError {
  return new NumericalRangeError(
    `float64 overflow after ${updates} updates: the weights or a dot product left the range of float64 (data or weights beyond about 1e154)`,
  );
}
