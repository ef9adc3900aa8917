import { ALL_BOUNDS, computes, wantedBounds, type BoundModes } from "../bounds/bound-choice.js";
import { computeBoundsWithDots, type SeparatorBounds } from "../bounds/convergence-bounds.js";
import { freundSchapireAlong, type FreundSchapire } from "../bounds/freund-schapire.js";
import { tightestFreundSchapire } from "../bounds/squared-hinge-path.js";
import { tightestSeparators, type TightestSeparators } from "../bounds/tightest-separators.js";
import { maxMarginSeparator, type MaxMarginResult } from "../bounds/max-margin-separator.js";
import { aPosterioriOf, type APosteriori } from "./a-posteriori.js";
import { DEFAULT_WORST_ORDER_BUDGET, worstOrder, type WorstOrder } from "../bounds/worst-order.js";
import type { DataSet } from "../vocabulary/data-set.js";
import { rowDots } from "../perceptron/row-passes.js";
import { ScratchArray, type Float64Allocator } from "../math/scratch-array.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { drawInitialWeights, type InitSpec } from "../perceptron/initial-weights.js";
import { plantedSeparator, toLearnerCoordinates } from "../perceptron/learner-coordinates.js";
import type { PerceptronOptions, PerceptronResult } from "../perceptron/perceptron.js";
import type { PresentationOrder } from "../vocabulary/point-parameters.js";
import { checkFloat64Range } from "../perceptron/float64-range.js";
import { runPerceptron } from "../perceptron/perceptron-kernel.js";
import { LATEST_DATA_VERSION, type DataVersion } from "../random/data-version.js";
import { createDraws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { OptimalStatus } from "./run-types.js";
import { allZero } from "../math/array-tests.js";

export interface LearnerOptions {
  readonly bias: boolean;
  readonly eta: number;
  readonly init: InitSpec;
  readonly order: PresentationOrder;
  readonly maxEpochs: number;
  /** Seeds the `init` and `order` streams. */
  readonly seed: number;
  /** How those streams draw (docs/theory.md, "Data versions"); default the latest. */
  readonly dataVersion?: DataVersion;
}

export interface AnalysisOptions {
  /**
   * Compute the max-margin separator, and with it the tightest separators for ŵ(0) ≠ 0 and the tightest
   * Freund–Schapire bound for ŵ(0) = 0 (default true): the slow steps.
   */
  readonly optimal?: boolean;
  /** Where the learner's coordinates are written (default a new array; executeRun's own, reused run after run). */
  readonly learnerArray?: Float64Allocator;
  /** Which bounds to compute (bound-choice.ts; default every one, on every run). */
  readonly bounds?: BoundModes;
  /**
   * Whether the data were drawn from a law made non-separable (planted label noise or overlap above 0): the
   * default's Freund–Schapire bounds and tightest separators are computed on such data, and on data for which
   * no separating vector is known.
   */
  readonly beyondSeparable?: boolean;
  /** The plug-in bounds to compute from each separator (docs/plugins.md); none by default. */
  readonly extraBounds?: readonly string[];
  /** The worst order's node budget, where `bounds` lists worstOrder (default DEFAULT_WORST_ORDER_BUDGET). */
  readonly worstOrderBudget?: number | undefined;
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
  /** Points on the wrong side of the planted hyperplane or on it (y(w·x + b) ≤ 0); null for data nobody planted. */
  readonly wrongSide: number | null;
  /** Training points the final ŵ misclassifies (ŵ·u_i ≤ 0). */
  readonly finalErrors: number;
  /** The fewest training points misclassified by ŵ at the end of any epoch of the run (the pocket). */
  readonly pocketErrors: number;
  /** Freund–Schapire at E = epochs (ŵ(0) = 0 only, where computed): along the planted separator, and over every (u, γ) (with `optimal`). */
  readonly freundSchapire: { readonly planted: FreundSchapire | null; readonly tightest: FreundSchapire | null } | null;
  /**
   * The separators with the smallest Hu D² and N(v) found, whenever a max-margin separator was (searched
   * for ŵ(0) ≠ 0 within TIGHTEST_LIMIT; from ŵ(0) = 0 the smaller of the planted and max-margin ones).
   */
  readonly tightest: TightestSeparators | null;
  /** The proof's four factors and the mistake-set bounds (docs/theory.md), where `bounds` lists them; else null. */
  readonly aPosteriori: APosteriori | null;
  /** The most updates over every order (docs/theory.md, "The worst order"), where `bounds` lists worstOrder and a separator is known; else null. */
  readonly worstOrder: WorstOrder | null;
}

/**
 * The largest n·dim² for which the tightest separators and the tightest Freund–Schapire bound are searched
 * (each step a dim × dim Newton system over n points, or a QP; about 50 steps a run): n 100 up to d 49, n 200
 * up to d 34, n 1000 up to d 14. Above it those columns stay empty; the planted Freund–Schapire bound is
 * still given. Measured at n 200: ~10 ms a run at d 20, ~50 ms at d 50, ~190 ms at d 100, 10 s at d 500
 * (docs/bounds.md).
 */
export const TIGHTEST_LIMIT = 2.5e5;

/** The learner's side of a run: perceptron → separators → bounds, on a data set however it was obtained. */
export function analyseDataSet(data: DataSet, options: LearnerOptions, analysis: AnalysisOptions = {}): Analysis {
  const learner = toLearnerCoordinates(data, options.bias, analysis.learnerArray);
  // A stream is seeded only when it is drawn from (seeding costs about a microsecond): a zero or explicit
  // init and a cyclic order draw nothing. Streams are independent, so this changes no number.
  const version = options.dataVersion ?? LATEST_DATA_VERSION;
  const initialWeights = drawInitialWeights(options.init, learner.dim, () => createDraws(options.seed, "init", version));
  // Both calls' options in one shape, written out: an object made by spreads cost a small run ~2 µs to make
  // and to read (trainPerceptronWasm's loads of its fields).
  const progress = options.order === "least-progress" ? progressAlong(data, learner, options.bias, analysis.optimal !== false) : undefined;
  const training = (random: Uniform | undefined, counts: Int32Array | undefined, onEpoch: PerceptronOptions["onEpoch"]): PerceptronOptions => ({
    eta: options.eta,
    initialWeights,
    order: options.order,
    maxEpochs: options.maxEpochs,
    random,
    counts,
    onEpoch,
    progress,
  });
  const orderStream = () => (options.order === "shuffle" || options.order === "random-mistake" ? createDraws(options.seed, "order", version).uniform : undefined);
  const modes = analysis.bounds ?? ALL_BOUNDS;
  // The a-posteriori columns need the updates point by point: counted only where they are asked for.
  const counts = modes.factors !== "never" || modes.mistakeSet !== "never" ? new Int32Array(learner.n) : undefined;
  const perceptron = runPerceptron(learner, training(orderStream(), counts, undefined));
  checkFloat64Range(learner, options.eta, initialWeights, perceptron.updates);
  // The separator's margin always; its four bounds as the declaration says.
  const wanted = wantedBounds(modes);
  const bounds = (separator: Float64Array, dots?: Float64Array) => computeBoundsWithDots(learner, separator, options.eta, initialWeights, dots, wanted, analysis.extraBounds);
  const planted = plantedSeparator(data, options.bias);
  // The planted separator's plain pass over the rows, once for its margin and its Freund–Schapire search.
  const plantedDots = planted === null ? undefined : separatorDots(learner, planted);
  const plantedBounds = planted === null ? null : bounds(planted, plantedDots);
  // A vector known to separate keeps the solver from calling separable data infeasible where it fails
  // numerically (three-point with c = 1e10: the perceptron stops at maxEpochs, quadprog gives up).
  const known = perceptron.converged ? perceptron.weights : planted !== null && plantedBounds!.margin > 0 ? planted : undefined;
  const certificate = known === undefined ? {} : { separating: known };
  const maxMargin = analysis.optimal === false ? null : maxMarginSeparator(learner, certificate);
  const optimal = maxMargin?.separator ? bounds(maxMargin.separator) : null;
  let separable: boolean | null = null;
  if (known !== undefined || optimal !== null) separable = true;
  else if (maxMargin?.status === "infeasible") separable = false;

  // The pocket: a converged run ends on a ŵ with no error; any other is replayed (same ŵ(0), same orders)
  // with the errors of every epoch's ŵ counted, which costs a run that did not converge about twice its time.
  let finalErrors = 0;
  let pocketErrors = 0;
  if (!perceptron.converged) {
    pocketErrors = learner.n;
    runPerceptron(
      learner,
      training(orderStream(), undefined, (weights) => (pocketErrors = Math.min(pocketErrors, countErrors(learner, weights)))),
    );
    finalErrors = countErrors(learner, perceptron.weights);
  }

  const zeroInit = allZero(initialWeights);
  // Freund–Schapire's E: the most times a point was presented. A cyclic or shuffled run presents each point once
  // an epoch; an adversarial one presents a point only to update it (docs/theory.md, "Adversarial orders").
  const presentations = perceptron.mostUpdatesOnAPoint ?? perceptron.epochs;
  const withOptimal = analysis.optimal !== false && learner.n * learner.dim * learner.dim <= TIGHTEST_LIMIT;
  const notKnownSeparable = analysis.beyondSeparable === true || separable !== true;
  const freundSchapire = zeroInit && computes(modes.freundSchapire, notKnownSeparable)
    ? {
        planted: planted === null ? null : freundSchapireAlong(learner, planted, presentations, plantedDots),
        tightest: withOptimal ? tightestFreundSchapire(learner, presentations, [planted, maxMargin?.separator ?? null]) : null,
      }
    : null;
  const tightest =
    maxMargin?.separator && optimal !== null && (zeroInit || withOptimal) && computes(modes.tightest, notKnownSeparable)
      ? tightestSeparators(learner, options.eta, initialWeights, maxMargin.separator, planted)
      : null;
  const aPosteriori =
    counts === undefined
      ? null
      : aPosterioriOf(learner, counts, modes, {
          eta: options.eta,
          initialWeights,
          planted: planted === null ? null : { separator: planted, margin: plantedBounds!.margin, dots: plantedDots },
          optimal: maxMargin?.separator && optimal !== null ? { separator: maxMargin.separator, margin: optimal.margin } : null,
          freundSchapire,
        });
  // The worst order: from the same ŵ(0) and η, cut by the planted and the max-margin separators (each only where proved to separate).
  const worst =
    modes.worstOrder === "always"
      ? worstOrder(learner, { eta: options.eta, initialWeights, separators: [planted, maxMargin?.separator ?? null], budget: analysis.worstOrderBudget ?? DEFAULT_WORST_ORDER_BUDGET })
      : null;
  return {
    perceptron,
    initialWeights,
    learnerRadius: Math.sqrt(learner.radiusSquared),
    planted: plantedBounds,
    optimal,
    optimalStatus: maxMargin?.status ?? "off",
    maxMargin,
    separable,
    wrongSide: wrongSideOf(data),
    finalErrors,
    pocketErrors,
    freundSchapire,
    tightest,
    aPosteriori,
    worstOrder: worst,
  };
}

/** Points ŵ misclassifies: ŵ·u_i ≤ 0 (the mistake rule; NaN counts too), each dot summed as the perceptron does. */
export function countErrors({ n, dim, u }: LearnerData, weights: Float64Array): number {
  let errors = 0;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += weights[j]! * u[i * dim + j]!;
    if (!(dot > 0)) errors++;
  }
  return errors;
}

/** Points with y(w·x + b) ≤ 0 for the planted hyperplane, in the input space; null when nothing was planted. */
function wrongSideOf(data: DataSet): number | null {
  if (data.planted === null) return null;
  const { n, d, x, y } = data;
  const { w, b } = data.planted;
  // Each w·x_i summed from b (b + w₀x₀ + …), as it always was: a point on the plane counts as wrong.
  const dots = SIDE_DOTS.of(n);
  rowDots(x, n, d, w, dots, b);
  let wrong = 0;
  for (let i = 0; i < n; i++) if (!(y[i]! * dots[i]! > 0)) wrong++;
  return wrong;
}

/** This thread's scratch of wrongSideOf. */
const SIDE_DOTS = new ScratchArray();

/** ŵ·u_i of every row as rowDots sums them, in this thread's scratch (valid until the next call). */
function separatorDots({ n, dim, u }: LearnerData, separator: Float64Array): Float64Array {
  const dots = SEPARATOR_DOTS.view(n);
  rowDots(u, n, dim, separator, dots);
  return dots;
}

/** This thread's scratch of separatorDots. */
const SEPARATOR_DOTS = new ScratchArray();

/**
 * v·u_i of every row for the least-progress order: v the max-margin separator (solved before the run, without the
 * run's weights as a certificate), else the planted one where it separates. A RangeError where neither is known:
 * the order has nothing to attack (an error row).
 */
function progressAlong(data: DataSet, learner: LearnerData, bias: boolean, optimal: boolean): Float64Array {
  const solved = optimal ? maxMarginSeparator(learner).separator : undefined;
  const planted = plantedSeparator(data, bias);
  const v = solved ?? (planted !== null && separatorDots(learner, planted).every((dot) => dot > 0) ? planted : null);
  if (v === null) throw new RangeError("the least-progress order needs a separator of the data: the max-margin one was not found (or optimal is off) and the planted one does not separate");
  const dots = new Float64Array(learner.n);
  rowDots(learner.u, learner.n, learner.dim, v, dots);
  return dots;
}
