import { A_POSTERIORI_COLUMNS } from "../export/run-columns.js";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../run/execute-run.js";
import { pick, POINT_KEYS, type RunRow } from "../run/run-types.js";

/** The numbers a summary needs of each converged run (a run cut off at maxEpochs has no count): their statistics. */
export const STATISTIC_COLUMNS = ["updates", ...RATIO_COLUMNS, "tightestHuRatio", "tightestOptimisedRatio", "bestRatio"] as const;
/**
 * Medians over every run that did not fail, converged or not: the data's radius and margins and the bounds
 * are the run's data set's, known whether the perceptron converged on it or not (a point none of whose runs
 * converged still shows the bound that explains its epoch cap).
 */
export const MEDIAN_COLUMNS = ["learnerRadius", "plantedMargin", "optimalMargin", ...BOUND_COLUMNS, "tightestHuBound", "tightestOptimisedBound", "bestBound"] as const;
/**
 * Statistics over every run that did not fail, converged or not (docs/theory.md, "Beyond separable data": the
 * Freund–Schapire bound holds at any epoch count). `mistakes` is the updates column of all those runs.
 */
export const EVERY_RUN_COLUMNS = [
  "mistakes",
  "firstEpochMistakes",
  "lastEpochMistakes",
  "finalErrors",
  "pocketErrors",
  "wrongSide",
  "plantedFreundSchapireBound",
  "tightestFreundSchapireBound",
  "plantedFreundSchapireRatio",
  "tightestFreundSchapireRatio",
  // The a-posteriori columns hold at every point of a run, converged or not (docs/theory.md).
  ...A_POSTERIORI_COLUMNS,
] as const;
export const SUMMARY_COLUMNS = [...STATISTIC_COLUMNS, ...MEDIAN_COLUMNS, ...EVERY_RUN_COLUMNS] as const;
/** Where the columns over every ok run (MEDIAN_COLUMNS, then EVERY_RUN_COLUMNS) start in SUMMARY_COLUMNS. */
export const EVERY_RUN_FROM = STATISTIC_COLUMNS.length;

/** Per run: its grid point, its flags, its violations, then SUMMARY_COLUMNS (NaN for null). */
export const DIGEST_WIDTH = 3 + SUMMARY_COLUMNS.length;
export const DIGEST_POINT = 0;
export const DIGEST_FLAGS = 1;
export const DIGEST_VIOLATIONS = 2;
export const DIGEST_COLUMNS = 3;
export const FLAG_OK = 1;
export const FLAG_CONVERGED = 2;
/** The max-margin solver ran and did not certify optimality (inexact, infeasible, failed, too large). */
export const FLAG_NOT_OPTIMAL = 4;

/** What identifies a grid point in its summary row. */
export type PointHead = Pick<RunRow, "grid" | "point" | (typeof POINT_KEYS)[number]>;

/**
 * What the coordinator needs of a batch of rows besides their table lines: counts and summaries read
 * `values` (DIGEST_WIDTH numbers a run, one typed array a batch: cheap to post between threads, no
 * garbage per run), a head per grid point, and the whole rows of the few runs a report names (failed
 * or violating a bound).
 */
export interface RunDigest {
  readonly count: number;
  readonly values: Float64Array;
  /** The heads of the grid points the rows belong to, in order. */
  readonly heads: PointHead[];
  /** The rows with status "error" or violations > 0, in order. */
  readonly notable: RunRow[];
}

export function digestRows(rows: readonly RunRow[]): RunDigest {
  const values = new Float64Array(rows.length * DIGEST_WIDTH);
  const heads: PointHead[] = [];
  const notable: RunRow[] = [];
  rows.forEach((row, k) => {
    const at = k * DIGEST_WIDTH;
    if (heads.length === 0 || heads[heads.length - 1]!.point !== row.point) heads.push(pick(row, ["grid", "point", ...POINT_KEYS]));
    const notOptimal = row.optimalStatus !== null && row.optimalStatus !== "optimal" && row.optimalStatus !== "off";
    values[at + DIGEST_POINT] = row.point;
    values[at + DIGEST_FLAGS] = (row.status === "ok" ? FLAG_OK : 0) | (row.converged === true ? FLAG_CONVERGED : 0) | (notOptimal ? FLAG_NOT_OPTIMAL : 0);
    values[at + DIGEST_VIOLATIONS] = row.violations ?? 0;
    const record = row as unknown as Record<string, number | null>;
    for (let c = 0; c < SUMMARY_COLUMNS.length; c++) {
      const name = SUMMARY_COLUMNS[c]!;
      values[at + DIGEST_COLUMNS + c] = record[name === "mistakes" ? "updates" : name] ?? NaN;
    }
    if (row.status !== "ok" || (row.violations ?? 0) > 0) notable.push(row);
  });
  return { count: rows.length, values, heads, notable };
}
