import { fdlibmPow } from "../math/fdlibm-pow.js";
import { goldenSection } from "../math/golden-section.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { computeBounds } from "./convergence-bounds.js";
import { alignedSeparator } from "./max-margin-separator.js";

/** The smallest value of one bound found over separators, and the separator (learner's coordinates, any scale). */
export interface TightestSeparator {
  readonly bound: number;
  readonly separator: Float64Array;
}

export interface TightestSeparators {
  /** Hu's D² = ‖v − a_H ŵ*‖² at its smallest found; null when no candidate gives one. */
  readonly hu: TightestSeparator | null;
  /** N(v) at its smallest found; null when no candidate gives one. */
  readonly optimised: TightestSeparator | null;
}

/**
 * The tightest separable bounds for ŵ(0) ≠ 0 (docs/theory.md, "Which ŵ*"): Hu's D² and N(v) minimised over
 * unit separators. Both depend on ŵ* only through its margin γ and p = ŵ*·v (v = ŵ(0)/η), and for a fixed
 * γ both fall as p rises; so in w = (1/γ)·ŵ* (w·u_i ≥ 1, ‖w‖ = 1/γ) a minimiser has the largest w·v among
 * separators of its norm: a point of the frontier between min ‖w‖² and max w·v over {w: w·u_i ≥ 1}, a convex
 * set, hence (supporting hyperplanes) the solution of min ½‖w‖² − s w·v for some s ≥ 0 (s = 0: the
 * max-margin separator). A local search over s, each step a QP (alignedSeparator): a scan of log s
 * around s₀ = ‖w*‖/‖v‖ (the two terms balanced), then golden sections around the best point of each bound.
 *
 * Every candidate's bounds are recomputed from the vector (computeBounds, rounded outward), and a
 * candidate that does not separate the data gives none. The planted and max-margin separators are
 * candidates too, so neither bound is ever above theirs. From ŵ(0) = 0 (v = 0) there is nothing to search:
 * the max-margin separator minimises both there (docs/theory.md), and the result is the smaller of the two
 * candidates' values (the planted one can come out an ulp lower).
 */
export function tightestSeparators(
  data: LearnerData,
  eta: number,
  initialWeights: Float64Array,
  maxMargin: Float64Array,
  planted: Float64Array | null,
): TightestSeparators {
  const { dim } = data;
  let hu: TightestSeparator | null = null;
  let optimised: TightestSeparator | null = null;
  const consider = (separator: Float64Array): { hu: number; optimised: number } => {
    const { bounds } = computeBounds(data, separator, eta, initialWeights);
    const values = { hu: bounds.hu ?? Infinity, optimised: bounds.optimised ?? Infinity };
    if (bounds.hu !== null && (hu === null || bounds.hu < hu.bound)) hu = { bound: bounds.hu, separator };
    if (bounds.optimised !== null && (optimised === null || bounds.optimised < optimised.bound)) optimised = { bound: bounds.optimised, separator };
    return values;
  };
  consider(maxMargin);
  if (planted !== null) consider(planted);

  const v = Float64Array.from(initialWeights, (value) => value / eta);
  let vNorm2 = 0;
  let wNorm2 = 0;
  let least = Infinity;
  for (let j = 0; j < dim; j++) {
    vNorm2 += v[j]! * v[j]!;
    wNorm2 += maxMargin[j]! * maxMargin[j]!;
  }
  for (let i = 0; i < data.n; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += maxMargin[j]! * data.u[i * dim + j]!;
    least = Math.min(least, dot);
  }
  if (vNorm2 > 0 && least > 0 && Number.isFinite(vNorm2)) {
    // ‖w*‖ of the max-margin separator scaled to min w·u_i = 1, i.e. 1/γ*.
    const s0 = Math.sqrt(wNorm2) / least / Math.sqrt(vNorm2);
    // Each step's QP is solved once: the two bounds' golden sections start from the same bracket when
    // their best scanned point is the same, and then ask for the same points.
    const solved = new Map<number, { hu: number; optimised: number; frontier: number }>();
    const at = (log: number) => {
      let values = solved.get(log);
      if (values === undefined) {
        // fdlibmPow, not 2 ** log (Math.pow): engines differ in its last bit, and s picks the separator.
        const scale = s0 * fdlibmPow(2, log);
        const separator = alignedSeparator(data, v.map((value) => value * scale), maxMargin);
        values = separator === null ? { hu: Infinity, optimised: Infinity, frontier: Infinity } : { ...consider(separator), frontier: frontierValue(data, v, separator, scale) };
        solved.set(log, values);
      }
      return values;
    };
    const scanned: { log: number; hu: number; optimised: number; frontier: number }[] = [];
    for (let log = SCAN.from; log <= SCAN.to; log += SCAN.step) scanned.push({ log, ...at(log) });
    // Hu's D² by its own values; N(v) by the frontier's g(s), unimodal in s (see frontierValue), whose
    // minimum is N(v)'s over every separator: a golden section on N(v) itself, which need not be unimodal
    // along the frontier, had stopped up to 0.3 % above it.
    for (const name of ["hu", "frontier"] as const) {
      const best = scanned.reduce((a, b) => (b[name] < a[name] ? b : a));
      if (!Number.isFinite(best[name])) continue;
      goldenSection(best.log - SCAN.step, best.log + SCAN.step, name === "hu" ? GOLDEN_STEPS : FRONTIER_STEPS, (log) => at(log)[name]);
    }
  }
  return { hu, optimised };
}

/** log₂(s/s₀) scanned from −16 to 16 by 4 (9 QPs). */
const SCAN = { from: -16, to: 16, step: 4 } as const;
/** Golden sections per bound: 24 narrow a bracket of 8 in log₂ s to 10⁻⁴ (the brute-force test asks 10⁻⁴ of the bound). */
const GOLDEN_STEPS = 24;
/**
 * For g(s), 36: to 2·10⁻⁷ in log₂ s. g has kinks (where the point that sets min_i w·u_i changes), near which it
 * moves linearly: at 24 steps the value found was up to 2·10⁻⁵ above the best of the old local search.
 */
const FRONTIER_STEPS = 36;

/**
 * N(v) over every separator is min over w of ‖v − w‖²/(2·min_i w·u_i − R²) (Hu's argument with its constant a
 * folded into w = a·ŵ*): a convex quadratic over a positive concave function, whose sublevel sets are convex.
 * Over the vectors w = z/s of the frontier (z the solution of min ½‖z‖² − s z·v, z·u_i ≥ 1: the projection of v
 * onto {w: w·u_i ≥ 1/s}), g(s) = ‖v − z/s‖²/(2/s − R²) therefore has a single minimum in s, equal
 * to that of N(v). Plain float64: it steers the search; the bounds reported are each candidate's own, rounded
 * outward. ∞ where the denominator is not positive (no bound from that w).
 */
function frontierValue(data: LearnerData, v: Float64Array, z: Float64Array, s: number): number {
  const { n, dim, u } = data;
  let least = Infinity;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += z[j]! * u[i * dim + j]!;
    least = Math.min(least, dot);
  }
  // alignedSeparator gives z at any scale (its problem's, R·z): taken at min_i z·u_i = 1, w = z/(s·least).
  if (!(least > 0)) return Infinity;
  const denominator = 2 / s - data.radiusSquared;
  if (!(denominator > 0)) return Infinity;
  let distance = 0;
  for (let j = 0; j < dim; j++) distance += (v[j]! - z[j]! / (s * least)) ** 2;
  return distance / denominator;
}
