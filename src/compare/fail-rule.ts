import { UsageError } from "../cli/cli-error.js";

export const STATISTICS = ["mean", "sd", "min", "median", "p90", "max"] as const;
export type StatisticName = (typeof STATISTICS)[number];

/** `--fail median:updates:10%`: fail when a point's statistic moves by more than the threshold, either way. */
export interface FailRule {
  readonly text: string;
  readonly statistic: StatisticName;
  /** A column of summary.json with statistics (`updates`, `bestRatio`, `optimalNovikoffRatio`, …) or `ratio.<bound>`. */
  readonly metric: string;
  /** Relative (a fraction of the baseline) or absolute. */
  readonly threshold: { readonly value: number; readonly relative: boolean };
}

export const DEFAULT_FAIL_RULES = ["median:updates:5%"];

export function parseFailRule(text: string): FailRule {
  const parts = text.split(":");
  if (parts.length !== 3) throw new UsageError(`--fail ${text}: use statistic:metric:threshold, as in median:updates:10% or p90:ratio.novikoff:0.05`);
  const [statistic, metric, limit] = parts as [string, string, string];
  if (!(STATISTICS as readonly string[]).includes(statistic)) {
    throw new UsageError(`--fail ${text}: the statistic must be one of ${STATISTICS.join(", ")} (got ${JSON.stringify(statistic)})`);
  }
  if (metric === "") throw new UsageError(`--fail ${text}: name a metric, as in updates or ratio.novikoff`);
  const relative = limit.endsWith("%");
  const value = Number(relative ? limit.slice(0, -1) : limit);
  if (limit === "" || limit === "%" || !Number.isFinite(value) || value < 0) {
    throw new UsageError(`--fail ${text}: the threshold must be a number ≥ 0, or a percentage as in 10%`);
  }
  return { text, statistic: statistic as StatisticName, metric, threshold: { value: relative ? value / 100 : value, relative } };
}
