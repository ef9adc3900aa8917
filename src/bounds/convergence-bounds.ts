import { dotEnclosure, maxRowSquare, type Enclosure } from "../math/dot-enclosure.js";
import { minRowDot } from "./min-row-dot.js";
import { add, div, mul, nonNegative, point, sqrt, square, sub } from "../math/interval.js";
import { divUp, mulDown, mulUp, nextUp, sqrtUp, subUp, TINY, UNIT } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { separatorMargin, withinScale } from "./separator-margin.js";

/** The bounds of docs/theory.md on the number of updates k; null where a bound does not apply. */
export interface BoundSet {
  /** (R/γ)², a bound only for ŵ(0) = 0. */
  readonly novikoff: number | null;
  /** Snapp's k_max, clamped at 0. */
  readonly snapp: number | null;
  /** Hu's D² with D = ‖ŵ(0)/η − a_H ŵ*‖. */
  readonly hu: number | null;
  /** N(v), the minimum over a of Hu's argument (docs/theory.md, bound 4). */
  readonly optimised: number | null;
  /** The smallest of the bounds that apply. */
  readonly best: number | null;
}

export const BOUND_NAMES = ["novikoff", "snapp", "hu", "optimised", "best"] as const;
export type BoundName = (typeof BOUND_NAMES)[number];

export interface SeparatorBounds {
  /** γ = min_i ŵ*·u_i / ‖ŵ*‖, the separator's margin in the learner's coordinates (≤ 0: not separating). */
  readonly margin: number;
  readonly bounds: BoundSet;
}

const NO_BOUNDS: BoundSet = { novikoff: null, snapp: null, hu: null, optimised: null, best: null };

/** Which of the four bounds to compute (`best` is the smallest of those computed); default all four. */
export type WantedBounds = Readonly<Record<Exclude<BoundName, "best">, boolean>>;
const EVERY_BOUND: WantedBounds = { novikoff: true, snapp: true, hu: true, optimised: true };

/**
 * Every bound of docs/theory.md for the separator ŵ (any positive scale) and a run with increment η from ŵ(0).
 *
 * Each formula is rewritten with a = min_i ŵ·u_i and S = ‖ŵ‖² of the unnormalised ŵ, so that no square
 * root is taken (γ = a/√S, ŵ* = ŵ/√S): the structured families' integer data then give their exact
 * bounds (n, not n·(1 ± ε)). With v = ŵ(0)/η (every bound depends on η and ŵ(0) only through v) and
 * M = R²:
 *  1. Novikoff (R/γ)² = M S / a², for ŵ(0) = 0 only.
 *  2. Snapp k_max = (ηM − μ)‖ŵ‖²/(η a²) with μ = 2 min_i ŵ(0)·u_i: this is docs/theory.md's formula as it
 *     stands (it takes ŵ* unnormalised); = (M − 2 min_i v·u_i) S / a², clamped at 0 (μ > 0: ŵ(0)
 *     already separates and k = 0).
 *  3. Hu D² = ‖v − a_H ŵ*‖², a_H = (M + 1)/(2γ); a_H ŵ* = c ŵ with c = (M + 1)/(2a). Summed
 *     component by component, which stays accurate when v is close to a_H ŵ*.
 *  4. N(v) = [B + √(B² + 4γ²(‖v‖² − p²))]/(2γ²), B = M − 2γp, p = ŵ*·v. With q = ŵ·v:
 *     γp = a q / S, √X = 2a √(‖v‖² − q²/S) / √S and 1/(2γ²) = S/(2a²); √(B² + X) = hypot(B, √X). When
 *     B < 0 the sum B + √(B² + X) cancels; it is computed as X/(√(B² + X) − B) instead.
 * A separator with a ≤ 0 does not separate the data: it gives no bound at all.
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
): SeparatorBounds {
  const { n, dim, u } = data;
  const m = maxRowSquare(u, n, dim);
  // Every bound depends on the separator's direction only: one far from unit scale is taken at unit scale.
  const scaled = withinScale(given);
  const separator = scaled === given ? given : (scaled as Float64Array);
  const { margin, a, s } = separatorMargin(data, separator, separator === given ? separatorDots : undefined);
  if (!(a.lo > 0) || !(s.lo > 0)) return { margin, bounds: NO_BOUNDS };

  const zeroInit = initialWeights.every((value) => value === 0);
  const etaPoint = point(eta);
  const denominator = square(a).lo;
  const upperBound = (numerator: Enclosure) => overSquare(numerator.hi, s.hi, a.lo, denominator);

  const novikoff = zeroInit ? upperBound(m) : null;
  const c = div(add(m, point(1)), mul(point(2), a));
  if (zeroInit) {
    // From ŵ(0) = 0 (v = 0): Snapp's k_max and N(0) are (R/γ)² (docs/theory.md, bounds 2 and 4), Hu's D² is
    // ‖c ŵ‖² = c² S. Each from its own upper ends, no pass over the components.
    const hu = mulUp(square(c).hi, s.hi);
    return { margin, bounds: only(wanted, { novikoff, snapp: novikoff, hu, optimised: novikoff }) };
  }

  const initNorm2 = dotEnclosure(initialWeights, 0, initialWeights, 0, dim);
  let snapp: number | null = null;
  if (wanted.snapp) {
    const minInitDot = minRowDot(u, n, dim, initialWeights, mulUp(sqrtUp(initNorm2.hi), sqrtUp(m.hi)));
    const snappFactor = sub(m, div(mul(point(2), minInitDot), etaPoint));
    snapp = snappFactor.hi <= 0 ? 0 : upperBound(snappFactor);
  }
  const hu = wanted.hu ? huUpper(initialWeights, eta, separator, c) : null;
  if (!wanted.optimised) return { margin, bounds: only(wanted, { novikoff, snapp, hu, optimised: null }) };

  const etaSquared = square(etaPoint);
  const vNorm2 = div(initNorm2, etaSquared);
  const q = div(dotEnclosure(separator, 0, initialWeights, 0, dim), etaPoint);
  const twoA = mul(point(2), a);
  const b = sub(m, div(mul(twoA, q), s));
  // √X with X = 4γ²(‖v‖² − p²) ≥ 0 (Cauchy–Schwarz), and √(B² + X) by a scaled hypot: squaring B or X
  // directly underflows to 0 on data near 1e-150 (halving N(0)) and overflows near 1e150.
  const rootX = div(mul(twoA, sqrt(nonNegative(sub(vNorm2, div(square(q), s))))), sqrt(s));
  const root = hypot(b, rootX);
  const numerator = b.hi >= 0 ? add(b, root) : div(square(rootX), sub(root, b));
  // Halved exactly: (x/a²)/2 rounded up is x/(2a²) rounded up, as it was computed before.
  const optimised = divUp(overSquare(numerator.hi, s.hi, a.lo, denominator), 2);
  return { margin, bounds: only(wanted, { novikoff, snapp, hu, optimised }) };
}

/** The range in which x·S over a² is taken in one division: a² at least 2⁻⁹⁰⁰, x·S at most 2¹⁰⁰⁰. */
const SMALLEST_SQUARE = 2 ** -900;
const LARGEST_PRODUCT = 2 ** 1000;

/**
 * x·S/a², rounded up (x ≥ 0, S > 0, a > 0): as one product over a² (`square`, a²'s lower end) where both
 * are comfortably inside float64's range, as every sweep's separators have them; else as (x/a)·(S/a), so that
 * nothing over- or underflows on the way to a finite result: M·S of a max-margin separator on data near 1e150
 * overflowed (a certified optimal separator with every bound ∞), and a² of a margin of 1e-166 underflowed
 * (its rounding down had made a bound negative).
 */
function overSquare(x: number, s: number, a: number, square: number): number {
  const product = mulUp(x, s);
  if (square >= SMALLEST_SQUARE && product <= LARGEST_PRODUCT) return divUp(product, square);
  return mulUp(divUp(x, a), divUp(s, a));
}

/** The wanted bounds (the others null) and `best`, the smallest of them that applies (null if none does). */
function only(wanted: WantedBounds, all: Omit<BoundSet, "best">): BoundSet {
  const novikoff = wanted.novikoff ? all.novikoff : null;
  const snapp = wanted.snapp ? all.snapp : null;
  const hu = wanted.hu ? all.hu : null;
  const optimised = wanted.optimised ? all.optimised : null;
  const applicable = [novikoff, snapp, hu, optimised].filter((value): value is number => value !== null);
  return { novikoff, snapp, hu, optimised, best: applicable.length === 0 ? null : Math.min(...applicable) };
}

/** √(x² + y²) of two intervals, through a power of two k near the larger: k·√((x/k)² + (y/k)²), k exact. */
function hypot(x: Enclosure, y: Enclosure): Enclosure {
  const largest = Math.max(Math.abs(x.lo), Math.abs(x.hi), Math.abs(y.lo), Math.abs(y.hi));
  if (!(largest > 0) || !Number.isFinite(largest)) return largest === 0 ? point(0) : { lo: 0, hi: Infinity };
  const k = point(2 ** Math.floor(Math.log2(largest)));
  return mul(k, sqrt(add(square(div(x, k)), square(div(y, k)))));
}

/** u/(1 − u), rounded up: |fl(x) − x| ≤ U_PRIME·|fl(x)| for any correctly rounded result in the normal range. */
const U_PRIME = UNIT * (1 + 2 * UNIT);

/**
 * An upper end of Hu's D² = Σ_j (v_j − c ŵ_j)², v = ŵ(0)/η, for c anywhere in its interval, by an a-priori
 * error bound in plain float64 (a random ŵ(0) never makes it exact, so interval arithmetic per component,
 * 4x slower, buys nothing). With a_j = fl(ŵ(0)_j/η), b_j = fl(c_m ŵ_j) for the interval's midpoint c_m and
 * radius r, e_j = fl(a_j − b_j): |v_j − c ŵ_j| ≤ |e_j| + u'(|e_j| + |a_j| + |b_j|) + r|ŵ_j| (each rounding
 * errs by at most u' = u/(1 − u) of its result). These m_j, squared and summed in float64, err by less than
 * γ_{dim+1} relative plus an underflow allowance; the result is raised by more than that and stepped up.
 */
function huUpper(initialWeights: Float64Array, eta: number, separator: Float64Array, c: Enclosure): number {
  const dim = separator.length;
  const middle = c.lo + (c.hi - c.lo) / 2;
  const radius = Math.max(subUp(c.hi, middle), subUp(middle, c.lo));
  let sum = 0;
  for (let j = 0; j < dim; j++) {
    const a = initialWeights[j]! / eta;
    const b = middle * separator[j]!;
    const e = a - b;
    const bound = Math.abs(e) + U_PRIME * (Math.abs(e) + Math.abs(a) + Math.abs(b)) + radius * Math.abs(separator[j]!);
    // The bound's own four roundings (all of positive terms) err by less than 8u of it.
    const m = bound * (1 + 8 * UNIT);
    sum += m * m;
  }
  return nextUp(sum * (1 + 4 * (dim + 4) * UNIT) + dim * TINY);
}