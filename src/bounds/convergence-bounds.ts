import { dotEnclosure, maxRowSquare } from "../math/dot-enclosure.js";
import { add, div, mul, point, square } from "../math/interval.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { SEPARATOR_BOUNDS, type SeparatorBoundName } from "./separator/separator-bounds.js";
import type { SeparatorContext } from "./separator/separator-bound.js";
import { separatorMargin, withinScale } from "./separator-margin.js";
import { BOUND_NAMES } from "./bound-columns.js";
import { pluginBoundValues } from "./plugin-bounds.js";
import { allZero } from "../math/array-tests.js";

/** The bounds of docs/theory.md on the number of updates k, from one separator; null where a bound does not apply. */
export type BoundSet = Readonly<Record<SeparatorBoundName, number | null>> & {
  /** The smallest of the bounds that apply. */
  readonly best: number | null;
};


export interface SeparatorBounds {
  /** γ = min_i ŵ*·u_i / ‖ŵ*‖, the separator's margin in the learner's coordinates (≤ 0: not separating). */
  readonly margin: number;
  readonly bounds: BoundSet;
  /** The plug-in bounds asked for (plugin-bounds.ts), in order; null where one does not apply. */
  readonly extra: readonly (number | null)[];
}

const NO_BOUNDS = Object.fromEntries(BOUND_NAMES.map((name) => [name, null])) as unknown as BoundSet;

/** Which separator bounds to compute (`best` is the smallest of those computed); default all. */
export type WantedBounds = Readonly<Record<SeparatorBoundName, boolean>>;
const EVERY_BOUND = Object.fromEntries(SEPARATOR_BOUNDS.map((bound) => [bound.name, true])) as unknown as WantedBounds;

/**
 * Every bound of docs/theory.md for the separator ŵ (any positive scale) and a run with increment η from ŵ(0),
 * each by its module (separator/): written with a = min_i ŵ·u_i and S = ‖ŵ‖² of the unnormalised ŵ, so that
 * no square root is taken where none is needed (the structured families' integer data then give their exact
 * bounds), and with v = ŵ(0)/η (every bound depends on η and ŵ(0) only through v). A separator with a ≤ 0
 * does not separate the data: it gives no bound at all.
 *
 * Rounding can only make a bound larger (docs/bounds.md, "Rounding"): every quantity is an interval that
 * holds its exact value (interval.ts: each end rounded outward, exactly where the operation was exact),
 * the dot products are compensated (dot-enclosure.ts), and each bound is the upper end of its interval,
 * each margin the lower end of its. A separator is taken as separating only where a's lower end is > 0.
 */
export function computeBounds(data: LearnerData, separator: Float64Array, eta: number, initialWeights: Float64Array, wanted: WantedBounds = EVERY_BOUND): SeparatorBounds {
  return computeBoundsWithDots(data, separator, eta, initialWeights, undefined, wanted);
}

/**
 * computeBounds for a caller that has the separator's plain pass over the rows already (ŵ·u_i of every row,
 * as rowDots sums them: analyseDataSet, which shares it with the Freund–Schapire search). They choose the
 * rows whose dot products are enclosed (minRowDot), so they must be exactly those: not for the library's
 * users, who call computeBounds.
 */
export function computeBoundsWithDots(
  data: LearnerData,
  given: Float64Array,
  eta: number,
  initialWeights: Float64Array,
  separatorDots: ArrayLike<number> | undefined,
  wanted: WantedBounds = EVERY_BOUND,
  extraBounds: readonly string[] = NO_EXTRA,
): SeparatorBounds {
  const { n, dim, u } = data;
  const m = maxRowSquare(u, n, dim);
  // Every bound depends on the separator's direction only: one far from unit scale is taken at unit scale.
  const scaled = withinScale(given);
  const separator = scaled === given ? given : (scaled as Float64Array);
  const { margin, a, s } = separatorMargin(data, separator, separator === given ? separatorDots : undefined);
  if (!(a.lo > 0) || !(s.lo > 0)) return { margin, bounds: NO_BOUNDS, extra: extraBounds.length === 0 ? NO_EXTRA : extraBounds.map(() => null) };
  let initNorm2: ReturnType<SeparatorContext["initNorm2"]> | undefined;
  const context: SeparatorContext = {
    data,
    separator,
    eta,
    initialWeights,
    zeroInit: allZero(initialWeights),
    m,
    a,
    s,
    denominator: square(a).lo,
    c: div(add(m, point(1)), mul(point(2), a)),
    initNorm2: () => (initNorm2 ??= dotEnclosure(initialWeights, 0, initialWeights, 0, dim)),
  };
  const bounds: Record<string, number | null> = {};
  let best: number | null = null;
  for (const bound of SEPARATOR_BOUNDS) {
    const value = wanted[bound.name] ? bound.evaluate(context) : null;
    bounds[bound.name] = value;
    if (value !== null && (best === null || value < best)) best = value;
  }
  bounds.best = best;
  // A plug-in's bounds are the user's: beside the tool's, never in `best` (docs/plugins.md).
  return { margin, bounds: bounds as BoundSet, extra: extraBounds.length === 0 ? NO_EXTRA : pluginBoundValues(extraBounds, context) };
}

const NO_EXTRA: readonly never[] = [];
