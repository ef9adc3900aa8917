import { gamma, maxRowSquare } from "../math/dot-enclosure.js";
import { dotEnclosure } from "../math/dot-enclosure.js";
import { addUp, mulUp, nextUp, sqrtUp, subDown, subUp, TINY } from "../math/outward-rounding.js";
import { rowDots, rowDotsAndAbsolutes } from "../perceptron/row-passes.js";
import { ScratchArray } from "../math/scratch-array.js";
import { sortAscending } from "../math/sort-ascending.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { smallFloat64Array } from "../math/small-arrays.js";

/**
 * The Freund–Schapire bound (docs/theory.md, "Beyond separable data"): for any unit u and γ > 0, the updates
 * of the first E epochs from ŵ(0) = 0 are at most FS(u, γ, E) = ((R + √E·D₁(u, γ))/γ)², D₁² = Σ_i d_i²,
 * d_i = max(0, γ − u·u_i). With w = u/γ (any w ≠ 0 stands for u = w/‖w‖, γ = 1/‖w‖):
 *
 *     √FS = R‖w‖ + √E‖ξ(w)‖,  ξ_i(w) = max(0, 1 − w·u_i),
 *
 * which needs no normalisation. At w = 0 (γ → ∞) the value is E·n, the trivial bound of n mistakes an epoch.
 *
 * This is the upper end of that value for the float64 vector `w` as given: R² and ‖w‖² by their
 * enclosures, each w·u_i by its plain sum less its a-priori error (γ_{dim+2}·Σ|w_j u_ij|, Higham 3.1, with
 * room for underflow), each ξ_i, square and sum rounded up (docs/bounds.md, "Rounding"). So it is a true
 * bound whatever the rounding, and whoever chose w.
 */
export function freundSchapireBound(data: LearnerData, w: ArrayLike<number>, epochs: number): number {
  const { n, dim, u } = data;
  const radius = sqrtUp(maxRowSquare(u, n, dim).hi);
  const norm = sqrtUp(dotEnclosure(w, 0, w, 0, dim).hi);
  const relative = gamma(dim + 2);
  // Each w·u_i summed plainly, and Σ_j |w_j u_ij| from the same products (rowDotsAndAbsolutes).
  const dots = BOUND_DOTS.of(n);
  const absolutes = BOUND_ABSOLUTES.of(n);
  rowDotsAndAbsolutes(u, n, dim, w, dots, absolutes);
  let deviations = 0;
  for (let i = 0; i < n; i++) deviations = withDeviation(deviations, dots[i]!, absolutes[i]!, relative, dim);
  const root = addUp(mulUp(radius, norm), mulUp(sqrtUp(epochs), sqrtUp(deviations)));
  return mulUp(root, root);
}

/**
 * `deviations` plus ξ_i², rounded up, for a point whose w·u_i summed plainly is `dot` and Σ_j |w_j u_ij| is
 * `absolute`: ξ_i = 1 − (dot − error) rounded up, error = γ_{dim+2}·absolute (Higham 3.1, with room for
 * underflow), counted where it is > 0.
 */
function withDeviation(deviations: number, dot: number, absolute: number, relative: number, dim: number): number {
  // A point clearly beyond the margin adds nothing (ξ_i ≤ 0 below), and skips the outward steps: most
  // points at the best γ. 2·relative·absolute + 2⁻⁹⁰⁰ exceeds `error` below even as rounded, and a
  // plain difference above 1 has its exact one above 1 (1 is a float64), so dot − error > 1 exactly and
  // its rounding down is ≥ 1: ξ_i ≤ 0. The same sum, to the bit, as testing every point.
  if (dot - (2 * relative * absolute + SKIP_SLACK) > 1) return deviations;
  const error = nextUp(relative * absolute + dim * 2 * TINY);
  const xi = subUp(1, subDown(dot, error));
  return xi > 0 ? addUp(deviations, mulUp(xi, xi)) : deviations;
}

/** Room in the skip test of freundSchapireBound for the underflow slack dim·2·TINY of `error` (dim < 2¹⁰⁰). */
const SKIP_SLACK = 2 ** -900;

/** √FS in plain float64 for a search (not a bound: the chosen w is re-evaluated by freundSchapireBound). */
export function freundSchapireRoot(data: LearnerData, w: ArrayLike<number>, epochs: number, radius: number): number {
  const { n, dim, u } = data;
  let norm2 = 0;
  for (let j = 0; j < dim; j++) norm2 += w[j]! * w[j]!;
  let deviations = 0;
  for (let i = 0; i < n; i++) {
    const row = i * dim;
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += w[j]! * u[row + j]!;
    if (dot < 1) deviations += (1 - dot) * (1 - dot);
  }
  return radius * Math.sqrt(norm2) + Math.sqrt(epochs) * Math.sqrt(deviations);
}

/** A Freund–Schapire bound and the w = u/γ it was computed from. */
export interface FreundSchapire {
  readonly bound: number;
  /** w = u/γ in the learner's coordinates, bias last: u = w/‖w‖, γ = 1/‖w‖. */
  readonly w: Float64Array;
}

/**
 * FS for the direction of `separator` (any scale, say the planted one) with the best γ: w = t·ŝ, ŝ the
 * unit direction, and t = 1/γ minimising g(t) = R t + √E √(Σ_i (1 − t m_i)₊²), m_i = ŝ·u_i. g is convex
 * (a norm of affine maps, plus a linear term), and differentiable where some ξ_i > 0; its derivative
 * g'(t) = R − √E Σ_i ξ_i m_i / ‖ξ‖ rises from R − √E Σm_i/√n at t → 0. Beyond t_max = 1/min{m_i > 0}
 * only points with m_i ≤ 0 keep ξ_i > 0, where g' ≥ R > 0: the minimum lies in (0, t_max], found exactly
 * (bestScale). If g' ≥ 0 already at 0 (or no m_i > 0), the infimum is E·n at t → 0 and
 * w = 0 is returned. The bound is then evaluated at w, rounded outward. `dots`, where the caller has them
 * already (separator·u_i of every row, as rowDots sums them), spare the pass over the data that makes the
 * m_i: any values still give a true bound (it is evaluated at w from the data), the exact ones the best.
 */
export function freundSchapireAlong(data: LearnerData, separator: ArrayLike<number>, epochs: number, dots?: ArrayLike<number>): FreundSchapire {
  const { n, dim, u } = data;
  let norm2 = 0;
  for (let j = 0; j < dim; j++) norm2 += separator[j]! * separator[j]!;
  const w = smallFloat64Array(dim);
  if (!(norm2 > 0) || !Number.isFinite(norm2)) return { bound: freundSchapireBound(data, w, epochs), w };
  const scale = 1 / Math.sqrt(norm2);
  const m = MARGINS.of(n);
  const plain = dots ?? m;
  if (dots === undefined) rowDots(u, n, dim, separator, m);
  for (let i = 0; i < n; i++) m[i] = plain[i]! * scale;
  const best = bestScale(m, n, Math.sqrt(data.radiusSquared), epochs);
  if (best > 0) {
    const t = best * scale;
    for (let j = 0; j < dim; j++) w[j] = t * separator[j]!;
  }
  return { bound: freundSchapireBound(data, w, epochs), w };
}

/** This thread's scratch of freundSchapireBound (each row's dot and sum of absolute products). */
const BOUND_DOTS = new ScratchArray();
const BOUND_ABSOLUTES = new ScratchArray();

/** This thread's scratch of freundSchapireAlong (the m_i) and bestScale (the positive m_i, the sums). */
const MARGINS = new ScratchArray();
const POSITIVE = new ScratchArray();
const SUM_A = new ScratchArray();
const SUM_B = new ScratchArray();

/**
 * The t > 0 minimising g(t) = R t + √E √S(t), S(t) = Σ_i (1 − t m_i)₊² over m[0..n) (see freundSchapireAlong), or 0
 * where g' ≥ 0 from the start (so where no m_i > 0: then g'(0) = R − √E Σm_i/√n ≥ R). Exact, in
 * O(n log n): g' is continuous and rises, and between the breakpoints 1/m_i (m_i > 0, in increasing
 * order) the points with ξ_i > 0 are fixed, so with their a = Σ m_i, b = Σ m_i², c = their count,
 * S = c − 2ta + t²b = D + b(a/b − t)², D = c − a²/b ≥ 0, and
 * g'(t) = R − √E·b(a/b − t)/√S vanishes at t = a/b − R√(D/(b(Eb − R²))) (g' < 0 somewhere in the piece
 * needs Eb > R²). The piece is the first whose right end has g' ≥ 0. (A bisection on the sign of g' took
 * ~50 passes over the points for the same float64 answer: bounds equal to within 1.3·10⁻¹⁵ on 20 000
 * random data sets.)
 */
function bestScale(m: Float64Array, n: number, radius: number, epochs: number): number {
  // The positive m_i in ascending order, in positive[0..count): the k-th breakpoint (k from 0) is 1/m for
  // the k-th largest, m = positive[count − 1 − k], and drops it from the sums. Gathered by a loop (a typed
  // array's filter, a call a value, took 7 µs of n = 100; this 0.3), which also sums the points that never
  // drop out (m_i ≤ 0). Read from the end rather than reversed (a reverse cost ~1 µs of n = 100).
  const positive = POSITIVE.of(n);
  let count = 0;
  let restA = 0;
  let restB = 0;
  for (let i = 0; i < n; i++) {
    if (m[i]! > 0) {
      positive[count++] = m[i]!;
    } else {
      restA += m[i]!;
      restB += m[i]! * m[i]!;
    }
  }
  sortAscending(positive, count);
  // sumA[k], sumB[k]: the sums over the points still in past the k-th breakpoint (the non-positive ones, and
  // the count − k smallest positive), from the smallest positive up, never by subtraction.
  const sumA = SUM_A.of(count + 1);
  const sumB = SUM_B.of(count + 1);
  sumA[count] = restA;
  sumB[count] = restB;
  for (let k = count - 1; k >= 0; k--) {
    const value = positive[count - 1 - k]!;
    sumA[k] = sumA[k + 1]! + value;
    sumB[k] = sumB[k + 1]! + value * value;
  }
  const root = Math.sqrt(epochs);
  const slope = (t: number, k: number) => {
    const a = sumA[k]!;
    const s = n - k - 2 * t * a + t * t * sumB[k]!;
    return s > 0 ? radius - (root * (a - t * sumB[k]!)) / Math.sqrt(s) : radius;
  };
  if (!(slope(0, 0) < 0)) return 0;
  // Piece k: t between the (k−1)-th and the k-th breakpoints (from 0 for k = 0), without the k largest m_i.
  for (let k = 0; k < count; k++) {
    const left = k === 0 ? 0 : 1 / positive[count - k]!;
    const right = 1 / positive[count - 1 - k]!;
    if (slope(right, k) >= 0) {
      const a = sumA[k]!;
      const b = sumB[k]!;
      const D = Math.max(0, n - k - (a * a) / b);
      const t = a / b - radius * Math.sqrt(D / (b * (epochs * b - radius * radius)));
      // Rounding can put the root a hair outside its piece: the piece's end is then the answer.
      return Number.isFinite(t) ? Math.min(right, Math.max(left, t)) : right;
    }
  }
  // Beyond the last breakpoint only points with m_i ≤ 0 are in, where g' ≥ R > 0.
  return 1 / positive[0]!;
}
