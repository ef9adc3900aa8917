import type { SummaryRow } from "../run/summary-types.js";
import type { POINT_KEYS } from "../vocabulary/point-parameters.js";
import type { DetectableChange, TestSizes } from "./detectable-change.js";
import type { Effect } from "./effect-size.js";

export type Verdict = "pass" | "fail" | "inconclusive";

export type PointLabel = Pick<SummaryRow, (typeof POINT_KEYS)[number]>;

export interface RuleOutcome {
  /** The grid point, or null for a check over the whole sweep. */
  readonly point: PointLabel | null;
  readonly rule: string;
  /** What the rule reads: a run column, `converged share` or `errors`. */
  readonly column: string;
  /**
   * The units of baseline, current, change and the effect: the column's own (`updates`), `share of runs`,
   * `errors`, or `relative change` (current/baseline − 1, as a fraction); and of detectable.change, which
   * can differ over the sweep (`share of data sets`, `mean percentile of a data set's runs`): `detectableUnit`.
   */
  readonly unit: string;
  readonly detectableUnit: string | null;
  readonly baseline: number | null;
  readonly current: number | null;
  /** current − baseline, and relative to the baseline when it is not 0 (as a fraction). */
  readonly change: number | null;
  readonly relativeChange: number | null;
  /**
   * The test that confirms a move: paired where the two folders' runs pair (the same repeats with the same
   * seeds: "Wilcoxon signed-rank (paired)", "McNemar (paired)", "sign test over data sets (paired)"),
   * otherwise "Mann–Whitney U", "Fisher's exact test", a permutation test over data sets; null for errors,
   * which are counted, not tested.
   */
  readonly test: string | null;
  /**
   * The effect, current − baseline, with its interval and the level it achieves (effect-size.ts): Hodges–
   * Lehmann's shift of the metric at a point; Newcombe's score interval of a change of the converged share;
   * over the sweep, a relative change (geometric mean ratio − 1) or a mean difference, and the change of the
   * converged share, each with a cluster bootstrap interval over the data sets; null for errors.
   */
  readonly effect: Effect | null;
  /** The test's p, before and after the correction (Holm or BH within its level: the sweep's checks, the points'); null: no test. */
  readonly p: number | null;
  readonly adjustedP: number | null;
  readonly verdict: Verdict;
  /**
   * What the check could have confirmed at its sample size (detectable-change.ts): the smallest p its test
   * can reach, whether that is below its level (else no change can fail it), and the smallest change it
   * would confirm with 80 % power, in `detectableUnit`; null for errors (no test).
   */
  readonly detectable: DetectableChange | null;
}

/** A check before the correction: its verdict waits for the adjusted p. */
export interface Check extends Omit<RuleOutcome, "adjustedP" | "verdict" | "detectable"> {
  /** What its test ran on, for the detectable change; null: no test. */
  readonly sizes: TestSizes | null;
  /** The change the rule watches happened (beyond the threshold, a drop, a new error). */
  readonly moved: boolean;
  /** A move that fails without a test (a new error). */
  readonly certain: boolean;
}

export function changeOf(baseline: number | null, current: number | null): Pick<RuleOutcome, "baseline" | "current" | "change" | "relativeChange"> {
  const change = baseline === null || current === null ? null : current - baseline;
  const relativeChange = change === null || baseline === 0 ? null : change / Math.abs(baseline!);
  return { baseline, current, change, relativeChange };
}

/**
 * A two-sided p-value as the rule asks: as it is with twoSided; otherwise the one-sided p of a rise, the test's
 * own where it has one (`pRise`: an exact test of an asymmetric distribution), else half of the two-sided p where
 * the test's statistic points up (U or W₊ above its mean under no change), one minus half where it points down or
 * is level (those statistics are symmetric under no change). Never Hodges–Lehmann's shift: on integer counts
 * with most pairs tied it is 0 while U sees a rise.
 */
export function sided(p: number | null, rise: number | null, twoSided: boolean, pRise: number | null = null): number | null {
  if (p === null || twoSided) return p;
  if (pRise !== null) return pRise;
  return rise !== null && rise > 0 ? p / 2 : 1 - p / 2;
}
