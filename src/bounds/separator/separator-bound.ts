import type { Enclosure } from "../../math/dot-enclosure.js";
import { divUp, mulUp } from "../../math/outward-rounding.js";
import type { LearnerData } from "../../perceptron/learner-coordinates.js";

/**
 * A bound of docs/theory.md computed from one separator ŵ (any positive scale) for a run with increment η
 * from ŵ(0): one module each (novikoff.ts, snapp.ts, hu.ts, optimised.ts), listed in separator-bounds.ts.
 * Its columns (planted…Bound, optimal…Bound and their ratios), its place in `bounds`, in `best`, in the
 * violation guard, the summaries and the report all follow from the list.
 */
export interface SeparatorBound<Name extends string = string> {
  /** The name in `bounds` and the stem of its columns (plantedNovikoffBound, …). */
  readonly name: Name;
  /** How the report's legends name it. */
  readonly title: string;
  /** How the report's summary table heads its column (the max-margin one starred). */
  readonly short: string;
  /** What it needs where a run has no value (fit's words), if anything. */
  readonly needs?: string;
  /** What one run pays for it, in words (`--dry-run`). */
  readonly cost: string;
  /**
   * The upper end of the bound's interval (docs/bounds.md, "Rounding": every operation rounded outward), or
   * null where it does not apply. Called only for a separator proven to separate (a's lower end > 0).
   */
  evaluate(context: SeparatorContext): number | null;
}

/** What every bound of one separator shares: its margin's pieces as intervals, and the run's η and ŵ(0). */
export interface SeparatorContext {
  readonly data: LearnerData;
  /** The separator at unit scale where it was far from it (separator-margin.ts, withinScale). */
  readonly separator: Float64Array;
  readonly eta: number;
  readonly initialWeights: Float64Array;
  readonly zeroInit: boolean;
  /** Holds M = R² = max_i ‖u_i‖². */
  readonly m: Enclosure;
  /** Holds a = min_i ŵ·u_i (> 0). */
  readonly a: Enclosure;
  /** Holds S = ‖ŵ‖². */
  readonly s: Enclosure;
  /** a²'s lower end. */
  readonly denominator: number;
  /** Holds c = (M + 1)/(2a), Hu's a_H ŵ* = c ŵ. */
  readonly c: Enclosure;
  /** Holds ‖ŵ(0)‖² (computed once, where a bound asks). */
  initNorm2(): Enclosure;
}

/** The range in which x·S over a² is taken in one division: a² at least 2⁻⁹⁰⁰, x·S at most 2¹⁰⁰⁰. */
const SMALLEST_SQUARE = 2 ** -900;
const LARGEST_PRODUCT = 2 ** 1000;

/**
 * x·S/a², rounded up (x ≥ 0): as one product over a² where both are comfortably inside float64's range, as
 * every sweep's separators have them; else as (x/a)·(S/a), so that nothing over- or underflows on the way to
 * a finite result: M·S of a max-margin separator on data near 1e150 overflowed (a certified optimal separator
 * with every bound ∞), and a² of a margin of 1e-166 underflowed (its rounding down had made a bound negative).
 */
export function overSquare(context: SeparatorContext, x: number): number {
  const product = mulUp(x, context.s.hi);
  if (context.denominator >= SMALLEST_SQUARE && product <= LARGEST_PRODUCT) return divUp(product, context.denominator);
  return mulUp(divUp(x, context.a.lo), divUp(context.s.hi, context.a.lo));
}
