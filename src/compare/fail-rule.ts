import { commandLineOr } from "../vocabulary/option-words.js";
import { InputError } from "../vocabulary/input-error.js";
import { SEPARATOR_BOUNDS } from "../bounds/separator/separator-bounds.js";
import { RUN_COLUMNS } from "../run/run-columns.js";

/** The bounds a rule's `ratio.<bound>` names: the separator bounds of the registry, and best. */
const RATIO_ALIASES = [...SEPARATOR_BOUNDS.map((bound) => bound.name), "best"];
/** A rule's metric `ratio.<bound>`, the bound captured. */
export const RATIO_ALIAS = new RegExp(`^ratio\\.(${RATIO_ALIASES.join("|")})$`);
/** How messages and help name the aliases: ratio.<novikoff|snapp|hu|optimised|best>. */
export const RATIO_ALIAS_WORDS = `ratio.<${RATIO_ALIASES.join("|")}>`;

export const STATISTICS = ["mean", "sd", "min", "p10", "p25", "median", "p75", "p90", "max"] as const;
export type StatisticName = (typeof STATISTICS)[number];

/**
 * What compare checks at every grid point, each a `--fail` rule:
 * - `median:updates:10%` (statistic:metric:threshold): fail where a statistic of the converged runs moved
 *   by more than the threshold, either way, and a Mann–Whitney U test on the runs confirms the change;
 * - `converged`: fail where the share of converged runs dropped, confirmed by Fisher's exact test (and
 *   over the whole sweep, see compareResults);
 * - `errors`: fail where the current folder has more error runs than the baseline: any new error.
 */
export type FailRule = StatisticRule | { readonly kind: "converged"; readonly text: string } | { readonly kind: "errors"; readonly text: string };

export interface StatisticRule {
  readonly kind: "statistic";
  readonly text: string;
  readonly statistic: StatisticName;
  /** A numeric column of the runs (`updates`, `epochs`, `bestRatio`, `optimalNovikoffRatio`, …) or `ratio.<bound>`. */
  readonly metric: string;
  /** Relative (a fraction of the baseline) or absolute. */
  readonly threshold: { readonly value: number; readonly relative: boolean };
}

/** The rules when none is given: a drop in convergence, any new error, a confirmed move of the median of updates beyond 5 %. */
export const DEFAULT_FAIL_RULES = ["converged", "errors", "median:updates:5%"];

/** The run columns a statistic rule may read: counts and every bound, ratio, radius and margin. */
const NUMERIC_COLUMNS = RUN_COLUMNS.filter((column) => /^(updates|epochs|firstEpochMistakes|lastEpochMistakes|finalErrors|pocketErrors|wrongSide|learnerRadius|plantedMargin|optimalMargin|bestBound|bestRatio)$|(Bound|Ratio|Factor)$/.test(column));

export function parseFailRule(text: string): FailRule {
  if (text === "converged" || text === "errors") return { kind: text, text };
  const parts = text.split(":");
  if (parts.length !== 3) {
    throw new InputError(`${commandLineOr("--fail", "fail rule")} ${text}: use converged, errors, or statistic:metric:threshold as in median:updates:10% or p90:ratio.novikoff:0.05`);
  }
  const [statistic, metric, limit] = parts as [string, string, string];
  if (!(STATISTICS as readonly string[]).includes(statistic)) {
    throw new InputError(`${commandLineOr("--fail", "fail rule")} ${text}: the statistic must be one of ${STATISTICS.join(", ")} (got ${JSON.stringify(statistic)})`);
  }
  if (metric === "") throw new InputError(`${commandLineOr("--fail", "fail rule")} ${text}: name a metric, as in updates or ratio.novikoff`);
  if (!RATIO_ALIAS.test(metric) && !(NUMERIC_COLUMNS as readonly string[]).includes(metric)) {
    throw new InputError(`${commandLineOr("--fail", "fail rule")} ${text}: ${metric} is not a metric: use updates, epochs, ${RATIO_ALIAS_WORDS}, or a column such as bestRatio or plantedHuRatio`);
  }
  const relative = limit.endsWith("%");
  const value = Number(relative ? limit.slice(0, -1) : limit);
  if (limit === "" || limit === "%" || !Number.isFinite(value) || value < 0) {
    throw new InputError(`${commandLineOr("--fail", "fail rule")} ${text}: the threshold must be a number ≥ 0, or a percentage as in 10%`);
  }
  return { kind: "statistic", text, statistic: statistic as StatisticName, metric, threshold: { value: relative ? value / 100 : value, relative } };
}
