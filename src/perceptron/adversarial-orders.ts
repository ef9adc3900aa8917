import { allFinite } from "../math/array-tests.js";
import type { LearnerData } from "./learner-data.js";
import { checkOptions, overflowError, type PerceptronOptions, type PerceptronResult } from "./perceptron.js";
import { ADVERSARIAL_ORDERS, type AdversarialOrder, type PresentationOrder } from "../vocabulary/point-parameters.js";

export { ADVERSARIAL_ORDERS, type AdversarialOrder };

/** Whether an order picks among the mistaken points (docs/theory.md, "Adversarial orders") rather than presenting every point each epoch. */
export function isAdversarial(order: PresentationOrder): order is AdversarialOrder {
  return (ADVERSARIAL_ORDERS as readonly string[]).includes(order);
}

/**
 * The perceptron under an adversarial order (docs/theory.md, "Adversarial orders"): at each step every margin
 * ŵ·u_i is computed, and among the mistaken points (ŵ·u_i ≤ 0, the mistake rule) the order picks one:
 *  - most-violated: the smallest ŵ·u_i;
 *  - least-progress: the smallest v·u_i for the separator v of `progress` (v·u_i of every row): the update that
 *    gains least along the proof's separator;
 *  - most-growth: the largest ‖u_i‖² + 2 ŵ·u_i/η: the update that grows ‖ŵ‖² most;
 *  - random-mistake: a uniform choice (the order's seeded stream): the textbook PLA.
 * Ties go to the lowest index. Every step is an update; the run ends when no point is mistaken. An epoch is n
 * updates (epochs = ⌈updates/n⌉, at least 1; the final check that finds no mistake is not one of its own), so
 * maxEpochs allows n·maxEpochs updates. `onEpoch` is called at the end of each full epoch with a mistake in it.
 * Costs n·dim a step where a cyclic epoch costs n·dim for n presentations: for small data sets.
 */
export function trainAdversarial(data: LearnerData, options: PerceptronOptions): PerceptronResult {
  const { n, dim, u } = data;
  const { eta, maxEpochs } = options;
  const order = options.order as AdversarialOrder;
  const random = checkOptions(data, options);
  const progress = options.progress;
  if (order === "least-progress" && (progress === undefined || progress.length !== n)) throw new TypeError("the least-progress order needs v·u_i of every row (progress)");
  if (order === "random-mistake" && random === undefined) throw new TypeError("the random-mistake order needs a random stream");
  // Counted whether or not the caller asks: the Freund–Schapire bound needs the most updates on one point.
  const counts = options.counts ?? new Int32Array(n);
  const w = Float64Array.from(options.initialWeights);
  const margins = new Float64Array(n);
  const squares = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let square = 0;
    for (let j = 0; j < dim; j++) square += u[i * dim + j]! * u[i * dim + j]!;
    squares[i] = square;
  }
  const mistaken = new Int32Array(n);
  const limit = maxEpochs * n;
  let updates = 0;
  for (;;) {
    let count = 0;
    for (let i = 0; i < n; i++) {
      const row = i * dim;
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += w[j]! * u[row + j]!;
      margins[i] = dot;
      if (!(dot > 0)) {
        if (dot !== dot) throw overflowError(updates);
        mistaken[count++] = i;
      }
    }
    if (count === 0) {
      if (!allFinite(w)) throw overflowError(updates);
      const epochs = Math.max(1, Math.ceil(updates / n));
      return { updates, epochs, converged: true, firstEpochMistakes: Math.min(updates, n), lastEpochMistakes: 0, weights: w, mostUpdatesOnAPoint: mostOf(counts) };
    }
    if (updates >= limit) break;
    const pick = pickMistake(order, mistaken, count, margins, squares, progress, eta, random);
    const row = pick * dim;
    for (let j = 0; j < dim; j++) w[j]! += eta * u[row + j]!;
    counts[pick]!++;
    updates++;
    if (updates % n === 0) options.onEpoch?.(w, updates / n);
  }
  return { updates, epochs: maxEpochs, converged: false, firstEpochMistakes: Math.min(updates, n), lastEpochMistakes: n, weights: w, mostUpdatesOnAPoint: mostOf(counts) };
}

function pickMistake(
  order: AdversarialOrder,
  mistaken: Int32Array,
  count: number,
  margins: Float64Array,
  squares: Float64Array,
  progress: ArrayLike<number> | undefined,
  eta: number,
  random: (() => number) | undefined,
): number {
  if (order === "random-mistake") return mistaken[Math.floor(random!() * count)]!;
  let pick = mistaken[0]!;
  const score = (i: number): number =>
    order === "most-violated" ? margins[i]! : order === "least-progress" ? progress![i]! : -(squares[i]! + (2 * margins[i]!) / eta);
  let best = score(pick);
  for (let k = 1; k < count; k++) {
    const i = mistaken[k]!;
    const value = score(i);
    if (value < best) {
      best = value;
      pick = i;
    }
  }
  return pick;
}

/** The most updates any one point took: what the Freund–Schapire bound's E must cover (each point is presented only when updated). */
function mostOf(counts: Int32Array): number {
  let most = 0;
  for (let i = 0; i < counts.length; i++) most = Math.max(most, counts[i]!);
  return most;
}
