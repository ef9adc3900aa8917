import type { LearnerData } from "../perceptron/learner-coordinates.js";

/** The bounds of THEORY.md on the number of updates k; null where a bound does not apply. */
export interface BoundSet {
  /** (R/γ)², a bound only for ŵ(0) = 0. */
  readonly novikoff: number | null;
  /** Snapp's k_max, clamped at 0. */
  readonly snapp: number | null;
  /** Hu's D² with D = ‖ŵ(0)/η − a_H ŵ*‖. */
  readonly hu: number | null;
  /** N(v), the minimum over a of Hu's argument (THEORY.md, bound 4). */
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

/**
 * Every bound of THEORY.md for the separator ŵ (any positive scale) and a run with increment η from ŵ(0).
 *
 * Each formula is rewritten with a = min_i ŵ·u_i and S = ‖ŵ‖² of the unnormalised ŵ, so that no square
 * root is taken (γ = a/√S, ŵ* = ŵ/√S): the structured families' integer data then give their exact
 * bounds (n, not n·(1 ± ε)). With v = ŵ(0)/η (every bound depends on η and ŵ(0) only through v) and
 * M = R²:
 *  1. Novikoff (R/γ)² = M S / a², for ŵ(0) = 0 only.
 *  2. Snapp k_max = (ηM − μ)‖ŵ‖²/(η a²) with μ = 2 min_i ŵ(0)·u_i: this is THEORY.md's formula as it
 *     stands (it takes ŵ* unnormalised); = (M − 2 min_i v·u_i) S / a², clamped at 0 (μ > 0: ŵ(0)
 *     already separates and k = 0).
 *  3. Hu D² = ‖v − a_H ŵ*‖², a_H = (M + 1)/(2γ); a_H ŵ* = c ŵ with c = (M + 1)/(2a). Summed
 *     component by component, which stays accurate when v is close to a_H ŵ*.
 *  4. N(v) = [B + √(B² + 4γ²(‖v‖² − p²))]/(2γ²), B = M − 2γp, p = ŵ*·v. With q = ŵ·v:
 *     γp = a q / S, √X = 2a √(‖v‖² − q²/S) / √S and 1/(2γ²) = S/(2a²); √(B² + X) = hypot(B, √X). When
 *     B < 0 the sum B + √(B² + X) cancels; it is computed as X/(√(B² + X) − B) instead.
 * A separator with a ≤ 0 does not separate the data: it gives no bound at all.
 */
export function computeBounds(
  data: LearnerData,
  separator: Float64Array,
  eta: number,
  initialWeights: Float64Array,
): SeparatorBounds {
  const { n, dim, u, radiusSquared: m } = data;
  let s = 0;
  for (let j = 0; j < dim; j++) s += separator[j]! * separator[j]!;
  const zeroInit = initialWeights.every((value) => value === 0);
  let a = Infinity;
  // From ŵ(0) = 0 every ŵ(0)·u_i is 0: the loop then takes one dot product a point instead of two.
  let minInitDot = zeroInit ? 0 : Infinity;
  for (let i = 0; i < n; i++) {
    const row = i * dim;
    let dot = 0;
    if (zeroInit) {
      for (let j = 0; j < dim; j++) dot += separator[j]! * u[row + j]!;
    } else {
      let initDot = 0;
      for (let j = 0; j < dim; j++) {
        dot += separator[j]! * u[row + j]!;
        initDot += initialWeights[j]! * u[row + j]!;
      }
      if (initDot < minInitDot) minInitDot = initDot;
    }
    if (dot < a) a = dot;
  }
  const margin = a / Math.sqrt(s);
  if (!(a > 0) || !(s > 0)) return { margin, bounds: NO_BOUNDS };

  const a2 = a * a;
  let vNorm2 = 0;
  let q = 0;
  let hu = 0;
  const c = (m + 1) / (2 * a);
  for (let j = 0; j < dim; j++) {
    const v = initialWeights[j]! / eta;
    vNorm2 += v * v;
    q += separator[j]! * v;
    const diff = v - c * separator[j]!;
    hu += diff * diff;
  }

  const novikoff = zeroInit ? (m * s) / a2 : null;
  const snapp = Math.max(0, ((m - (2 * minInitDot) / eta) * s) / a2);
  const b = m - (2 * a * q) / s;
  // √X with X = 4γ²(‖v‖² − p²), and √(B² + X) by hypot: squaring B or X directly underflows to 0 on data
  // near 1e-150 (halving N(0)) and overflows near 1e150.
  const rootX = (2 * a * Math.sqrt(Math.max(0, vNorm2 - (q * q) / s))) / Math.sqrt(s);
  const root = Math.hypot(b, rootX);
  const numerator = b >= 0 ? b + root : rootX * (rootX / (root - b));
  const optimised = (numerator * s) / (2 * a2);

  const applicable = [novikoff, snapp, hu, optimised].filter((value): value is number => value !== null);
  const best = Math.min(...applicable);
  return { margin, bounds: { novikoff, snapp, hu, optimised, best } };
}
