import { decodeRow, encodeRows, ROW_WIDTH, type BinaryRows } from "../export/binary-rows.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { A_POSTERIORI_COLUMNS, columnIndex } from "../run/run-columns.js";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../bounds/bound-columns.js";
import { type RunRow } from "../run/run-types.js";
import { pick, POINT_KEYS } from "../vocabulary/point-parameters.js";

// The summary's column lists live with the other column lists (run/summary-columns.ts).
export { EVERY_RUN_COLUMNS, EVERY_RUN_FROM, MEDIAN_COLUMNS, STATISTIC_COLUMNS, SUMMARY_COLUMNS } from "../run/summary-columns.js";
import { EVERY_RUN_COLUMNS, EVERY_RUN_FROM, MEDIAN_COLUMNS, STATISTIC_COLUMNS, SUMMARY_COLUMNS } from "../run/summary-columns.js";

/**
 * Per run: its grid point, its flags, its violations, then SUMMARY_COLUMNS (NaN for null), then the
 * layout's plug-in bound columns (table-layout.ts), in its order: DIGEST_WIDTH numbers without them.
 */
export const DIGEST_WIDTH = 3 + SUMMARY_COLUMNS.length;

/** The numbers of one run's digest in a sweep of `layout`. */
export function digestWidth(layout: TableLayout): number {
  return DIGEST_WIDTH + layout.width - ROW_WIDTH;
}
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
  /** count × digestWidth(layout) numbers. */
  readonly values: Float64Array;
  /** The heads of the grid points the rows belong to, in order. */
  readonly heads: PointHead[];
  /** The rows with status "error" or violations > 0, in order. */
  readonly notable: RunRow[];
}

/** The digest of rows: digestBinary of their numbers (one reduction, whoever holds the rows). */
export function digestRows(rows: readonly RunRow[], layout: TableLayout = BUILT_IN): RunDigest {
  return digestBinary(encodeRows(rows, { layout }), layout);
}

/** Where each digest column's value lies in a binary row (mistakes: the updates column). */
const SUMMARY_AT = SUMMARY_COLUMNS.map((name) => columnIndex(name === "mistakes" ? "updates" : name));
const AT = {
  point: columnIndex("point"),
  status: columnIndex("status"),
  converged: columnIndex("converged"),
  optimalStatus: columnIndex("optimalStatus"),
  violations: columnIndex("violations"),
};

/**
 * The digest of binary rows (binary-rows.ts): where the pool's rows arrive as numbers, an exporter takes
 * it from them (exporter.ts) and the worker computes nothing for the coordinator but the rows.
 */
export function digestBinary(rows: BinaryRows, layout: TableLayout = BUILT_IN): RunDigest {
  const { count, values: row, texts } = rows;
  const width = digestWidth(layout);
  const rowWidth = layout.width;
  const values = new Float64Array(count * width);
  const heads: PointHead[] = [];
  const notable: RunRow[] = [];
  const ok = texts.indexOf("ok");
  // The texts index of the statuses that certify nothing wrong with the max-margin solve (or did not ask for one).
  const fine = new Set([texts.indexOf("optimal"), texts.indexOf("off")]);
  for (let k = 0, at = 0, from = 0; k < count; k++, at += width, from += rowWidth) {
    const point = row[from + AT.point]!;
    if (heads.length === 0 || heads[heads.length - 1]!.point !== point) heads.push(pick(decodeRow(rows, k, layout), ["grid", "point", ...POINT_KEYS]));
    const status = row[from + AT.status]!;
    const optimalStatus = row[from + AT.optimalStatus]!;
    const notOptimal = optimalStatus === optimalStatus && !fine.has(optimalStatus);
    const violations = row[from + AT.violations]!;
    values[at + DIGEST_POINT] = point;
    values[at + DIGEST_FLAGS] = (status === ok ? FLAG_OK : 0) | (row[from + AT.converged] === 1 ? FLAG_CONVERGED : 0) | (notOptimal ? FLAG_NOT_OPTIMAL : 0);
    values[at + DIGEST_VIOLATIONS] = violations === violations ? violations : 0;
    for (let c = 0; c < SUMMARY_AT.length; c++) values[at + DIGEST_COLUMNS + c] = row[from + SUMMARY_AT[c]!]!;
    for (let c = ROW_WIDTH; c < rowWidth; c++) values[at + DIGEST_WIDTH + c - ROW_WIDTH] = row[from + c]!;
    if (status !== ok || violations > 0) notable.push(decodeRow(rows, k, layout));
  }
  return { count, values, heads, notable };
}
