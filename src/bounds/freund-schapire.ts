import { gamma, maxRowSquare } from "../math/dot-enclosure.js";
import { dotEnclosure } from "../math/dot-enclosure.js";
import { addUp, mulUp, nextUp, sqrtUp, subDown, subUp, TINY } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";

/**
 * The Freund–Schapire bound (THEORY.md, "Beyond separable data"): for any unit u and γ > 0, the updates
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
  let deviations = 0;
  for (let i = 0; i < n; i++) {
    const row = i * dim;
    let dot = 0;
    let absolute = 0;
    for (let j = 0; j < dim; j++) {
      const product = w[j]! * u[row + j]!;
      dot += product;
      absolute += Math.abs(product);
    }
    const error = nextUp(relative * absolute + dim * 2 * TINY);
    const xi = subUp(1, subDown(dot, error));
    if (xi > 0) deviations = addUp(deviations, mulUp(xi, xi));
  }
  const root = addUp(mulUp(radius, norm), mulUp(sqrtUp(epochs), sqrtUp(deviations)));
  return mulUp(root, root);
}

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
 * only points with m_i ≤ 0 keep ξ_i > 0, where g' ≥ R > 0: the minimum lies in (0, t_max], found by
 * bisection on the sign of g'. If g' ≥ 0 already at 0 (or no m_i > 0), the infimum is E·n at t → 0 and
 * w = 0 is returned. The bound is then evaluated at w, rounded outward.
 */
export function freundSchapireAlong(data: LearnerData, separator: ArrayLike<number>, epochs: number): FreundSchapire {
  const { n, dim, u } = data;
  let norm2 = 0;
  for (let j = 0; j < dim; j++) norm2 += separator[j]! * separator[j]!;
  const w = new Float64Array(dim);
  if (!(norm2 > 0) || !Number.isFinite(norm2)) return { bound: freundSchapireBound(data, w, epochs), w };
  const scale = 1 / Math.sqrt(norm2);
  const m = new Float64Array(n);
  let smallestPositive = Infinity;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += separator[j]! * u[i * dim + j]!;
    m[i] = dot * scale;
    if (m[i]! > 0 && m[i]! < smallestPositive) smallestPositive = m[i]!;
  }
  const radius = Math.sqrt(data.radiusSquared);
  const root = Math.sqrt(epochs);
  const slope = (t: number): number => {
    let weighted = 0;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      const xi = 1 - t * m[i]!;
      if (xi > 0) {
        weighted += xi * m[i]!;
        squares += xi * xi;
      }
    }
    return squares > 0 ? radius - (root * weighted) / Math.sqrt(squares) : radius;
  };
  if (Number.isFinite(smallestPositive) && slope(0) < 0) {
    let lo = 0;
    let hi = 1 / smallestPositive;
    for (let k = 0; k < 200 && hi - lo > hi * 1e-15; k++) {
      const mid = lo + (hi - lo) / 2;
      if (slope(mid) < 0) lo = mid;
      else hi = mid;
    }
    const t = hi * scale;
    for (let j = 0; j < dim; j++) w[j] = t * separator[j]!;
  }
  return { bound: freundSchapireBound(data, w, epochs), w };
}
