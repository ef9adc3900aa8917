import type { BoundModes } from "../bounds/bound-choice.js";
import type { FreundSchapire } from "../bounds/freund-schapire.js";
import { mistakeSetBound } from "../bounds/mistake-set.js";
import { proofFactors, type ProofFactors } from "../bounds/proof-factors.js";
import { separatorMargin, withinScale } from "../bounds/separator-margin.js";
import { updateRounds } from "../bounds/update-rounds.js";
import { divUp } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { allZero } from "../math/array-tests.js";

/** A run's a-posteriori columns (docs/theory.md, "Why a bound is loose" and "Mistake-set bounds"). */
export interface APosteriori {
  /** The four factors for each separator (ŵ(0) = 0, k ≥ 1, a separating separator), where `factors` is listed. */
  readonly factors: { readonly planted: ProofFactors | null; readonly optimal: ProofFactors | null } | null;
  /** MS at each separator scaled to margin 1, and at the Freund–Schapire optima, where `mistakeSet` is listed. */
  readonly mistakeSet: { readonly planted: number | null; readonly optimal: number | null; readonly tightest: number | null } | null;
}

/** A separator of the run's data with its margin γ as the bounds took it (and the plain pass over its rows, where made). */
interface Separator {
  readonly separator: Float64Array;
  readonly margin: number;
  readonly dots?: Float64Array | undefined;
}

export interface APosterioriInputs {
  readonly eta: number;
  readonly initialWeights: Float64Array;
  readonly planted: Separator | null;
  readonly optimal: Separator | null;
  /** The Freund–Schapire optima, where computed (ŵ(0) = 0). */
  readonly freundSchapire: { readonly planted: FreundSchapire | null; readonly tightest: FreundSchapire | null } | null;
}

/**
 * The a-posteriori columns of a run from its per-point update counts. The mistake-set bound is evaluated
 * at a v chosen without looking at the run's rounds (its minimum over v is k itself, at v = 0): a separator
 * of margin γ > 0 as v = ŵ* / γ (then L(v) = 0: MS = √S_M/γ from ŵ(0) = 0), where the planted separator does
 * not separate (noisy data) the planted Freund–Schapire optimum w = u/γ, and the tightest one: by
 * docs/theory.md, MS(u/γ) ≤ FS(u, γ, E) for the same (u, γ).
 */
export function aPosterioriOf(data: LearnerData, counts: Int32Array, modes: BoundModes, given: APosterioriInputs): APosteriori {
  // Each separator at the scale the bounds take it (withinScale: the same direction by a power of two, its
  // plain pass dropped where scaled): 0.12.2 paired the planted separator of data near 1e±150 unscaled with
  // the rescaled one's margin, and read 5e305 where the exact value was 2.5e156.
  const inputs = { ...given, planted: atBoundsScale(given.planted), optimal: atBoundsScale(given.optimal) };
  const rounds = updateRounds(data, counts);
  const zeroInit = allZero(inputs.initialWeights);
  const factorsOf = (s: Separator | null) => (s === null ? null : proofFactors(data, rounds, s.separator, s.margin, zeroInit));
  const factors = modes.factors === "never" ? null : { planted: factorsOf(inputs.planted), optimal: factorsOf(inputs.optimal) };
  if (modes.mistakeSet === "never") return { factors, mistakeSet: null };
  const at = (w: Float64Array, scale: number) => mistakeSetBound(data, rounds, w, scale, inputs.eta, inputs.initialWeights);
  const fs = inputs.freundSchapire;
  const planted = inputs.planted === null ? null : inputs.planted.margin > 0 ? atMarginOne(data, inputs.planted, at) : fs?.planted ? at(fs.planted.w, 1) : null;
  return {
    factors,
    mistakeSet: {
      planted,
      optimal: inputs.optimal === null || !(inputs.optimal.margin > 0) ? null : atMarginOne(data, inputs.optimal, at),
      tightest: fs?.tightest ? at(fs.tightest.w, 1) : null,
    },
  };
}

/** MS at v = ŵ/a, a = min_i ŵ·u_i: the scale 1/a rounded up from a's lower end, so that every v·u_i ≥ 1 (L(v) = 0 up to rounding). */
function atMarginOne(data: LearnerData, s: Separator, at: (w: Float64Array, scale: number) => number): number | null {
  const { a } = separatorMargin(data, s.separator, s.dots);
  return a.lo > 0 ? at(s.separator, divUp(1, a.lo)) : null;
}

function atBoundsScale(s: Separator | null): Separator | null {
  if (s === null) return null;
  const scaled = withinScale(s.separator);
  return scaled === s.separator ? s : { separator: scaled, margin: s.margin };
}
