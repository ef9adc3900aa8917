import { BOUND_COLUMNS, RATIO_COLUMNS } from "../bounds/bound-columns.js";
import {
  DIGEST_COLUMNS,
  DIGEST_FLAGS,
  DIGEST_VIOLATIONS,
  DIGEST_WIDTH,
  EVERY_RUN_COLUMNS,
  EVERY_RUN_FROM,
  FLAG_CONVERGED,
  FLAG_NOT_OPTIMAL,
  FLAG_OK,
  MEDIAN_COLUMNS,
  STATISTIC_COLUMNS,
  SUMMARY_COLUMNS,
  type PointHead,
} from "./run-digest.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { medianOf, statistics } from "./statistics.js";
import type { Median, Statistics, SummaryRow } from "../run/summary-types.js";
import { ValueColumn } from "./value-column.js";

/** Values per column held in memory before they spill to a temporary file (128 KiB a column, 3.4 MB a point). */
export const SPILL_AFTER = 1 << 14;


/**
 * One grid point's runs, reduced as they arrive to counts and a column of numbers per summarised
 * quantity (the SUMMARY_COLUMNS of a converged run's digest, not the run's whole row), spilled to
 * temporary files past SPILL_AFTER values: memory stays flat however many repeats a point has, and the
 * medians and quantiles stay exact. Values keep the run order, so means are summed in the same order
 * every time.
 */
export class PointAccumulator {
  #runs = 0;
  #ok = 0;
  #converged = 0;
  #errors = 0;
  #violations = 0;
  #notOptimal = 0;
  readonly #columns: ValueColumn[];
  /** The plug-in bounds' columns (table-layout.ts), as the digest holds them after SUMMARY_COLUMNS: bounds, then ratios. */
  readonly #extra: ValueColumn[];
  readonly #width: number;

  constructor(
    readonly head: PointHead,
    /** Where columns spill past `spillAfter` values (see SpillFolder). */
    spillFile: () => { fd: number; path: string },
    spillAfter = SPILL_AFTER,
    readonly layout: TableLayout = BUILT_IN,
  ) {
    this.#columns = SUMMARY_COLUMNS.map(() => new ValueColumn(spillFile, spillAfter));
    this.#extra = [...layout.extraBoundColumns, ...layout.extraRatioColumns].map(() => new ValueColumn(spillFile, spillAfter));
    this.#width = DIGEST_WIDTH + this.#extra.length;
  }

  /** Adds the run whose digest starts at `at` in `values` (see RunDigest). */
  add(values: Float64Array, at: number): void {
    const flags = values[at + DIGEST_FLAGS]!;
    this.#runs++;
    if ((flags & FLAG_OK) === 0) this.#errors++;
    this.#violations += values[at + DIGEST_VIOLATIONS]!;
    if ((flags & FLAG_NOT_OPTIMAL) !== 0) this.#notOptimal++;
    if ((flags & FLAG_OK) === 0) return;
    this.#ok++;
    // NaN stands for "not applicable" (null) and is dropped when the statistics are taken.
    for (let c = EVERY_RUN_FROM; c < this.#columns.length; c++) this.#columns[c]!.push(values[at + DIGEST_COLUMNS + c]!);
    // A plug-in bound's medians are over every ok run, its ratios over the converged ones, as the built-in ones.
    const bounds = this.layout.extraBoundColumns.length;
    for (let c = 0; c < bounds; c++) this.#extra[c]!.push(values[at + DIGEST_WIDTH + c]!);
    if ((flags & FLAG_CONVERGED) === 0) return;
    this.#converged++;
    for (let c = 0; c < EVERY_RUN_FROM; c++) this.#columns[c]!.push(values[at + DIGEST_COLUMNS + c]!);
    for (let c = bounds; c < this.#extra.length; c++) this.#extra[c]!.push(values[at + DIGEST_WIDTH + c]!);
  }

  /**
   * Adds the `count` consecutive runs whose digests start at `at` in `values`: the same as adding them one
   * by one. A batch of ok, converged runs (the usual one) goes a column at a time (see
   * ValueColumn.pushStrided): ~0.3 µs a run of the coordinator against ~0.6 for a call a value.
   */
  addRuns(values: Float64Array, at: number, count: number): void {
    const width = this.#width;
    const end = at + count * width;
    for (let run = at; run < end; run += width) {
      const flags = values[run + DIGEST_FLAGS]!;
      if ((flags & FLAG_OK) === 0 || (flags & FLAG_CONVERGED) === 0) {
        for (let one = at; one < end; one += width) this.add(values, one);
        return;
      }
    }
    for (let run = at; run < end; run += width) {
      this.#violations += values[run + DIGEST_VIOLATIONS]!;
      if ((values[run + DIGEST_FLAGS]! & FLAG_NOT_OPTIMAL) !== 0) this.#notOptimal++;
    }
    this.#runs += count;
    this.#ok += count;
    this.#converged += count;
    for (let c = 0; c < this.#columns.length; c++) this.#columns[c]!.pushStrided(values, at + DIGEST_COLUMNS + c, width, count);
    for (let c = 0; c < this.#extra.length; c++) this.#extra[c]!.pushStrided(values, at + DIGEST_WIDTH + c, width, count);
  }

  /** The point's summary row; the accumulator is spent afterwards (its memory and files released). */
  summary(): SummaryRow {
    if (this.#runs === 0) throw new RangeError("a grid point needs at least one run");
    // One buffer for every column in turn: a point of 10^6 runs would otherwise leave ~24 MB of arrays a
    // column (its values, those present, a sorted copy) to the garbage collector, 26 times over.
    const scratch = new Float64Array(this.#ok);
    const take = (name: (typeof SUMMARY_COLUMNS)[number]): Float64Array => present(this.#columns[SUMMARY_COLUMNS.indexOf(name)]!);
    const present = (column: ValueColumn): Float64Array => {
      const values = column.values(scratch);
      column.dispose();
      // Indexed, not for…of: this loop runs once a column, too few times for V8 to optimise an iterator away.
      let present = 0;
      for (let i = 0; i < values.length; i++) {
        const value = values[i]!;
        if (!Number.isNaN(value)) scratch[present++] = value;
      }
      return scratch.subarray(0, present);
    };
    const stats: Record<string, Statistics> = {};
    for (const name of [...STATISTIC_COLUMNS, ...EVERY_RUN_COLUMNS]) stats[name] = statistics(take(name));
    const medians: Record<string, Median> = {};
    for (const name of MEDIAN_COLUMNS) medians[name] = medianOf(take(name));
    // The row in the tables' column order, made by one Object.fromEntries: a literal spreading the head,
    // with the column groups spread or assigned after it, left V8 a dictionary-mode object, slow to make
    // (~50-90 µs) and to write out (~60 µs), more than all the point's statistics.
    const entries: [string, unknown][] = Object.entries(this.head);
    entries.push(
      ["runs", this.#runs],
      ["converged", this.#converged],
      ["errors", this.#errors],
      ["violations", this.#violations],
      ["notOptimal", this.#notOptimal],
      ["updates", stats.updates!],
      ["learnerRadius", medians.learnerRadius!],
      ["plantedMargin", medians.plantedMargin!],
      ["optimalMargin", medians.optimalMargin!],
    );
    for (const name of BOUND_COLUMNS) entries.push([name, medians[name]!]);
    entries.push(["bestBound", medians.bestBound!]);
    entries.push(["tightestHuBound", medians.tightestHuBound!], ["tightestOptimisedBound", medians.tightestOptimisedBound!]);
    for (const name of RATIO_COLUMNS) entries.push([name, stats[name]!]);
    entries.push(["tightestHuRatio", stats.tightestHuRatio!], ["tightestOptimisedRatio", stats.tightestOptimisedRatio!]);
    entries.push(["bestRatio", stats.bestRatio!]);
    for (const name of EVERY_RUN_COLUMNS) entries.push([name, stats[name]!]);
    // The plug-in bounds' columns last (docs/plugins.md): medians of the bounds, statistics of the ratios.
    const { extraBoundColumns, extraRatioColumns } = this.layout;
    extraBoundColumns.forEach((name, c) => entries.push([name, medianOf(present(this.#extra[c]!))]));
    extraRatioColumns.forEach((name, c) => entries.push([name, statistics(present(this.#extra[extraBoundColumns.length + c]!))]));
    return Object.fromEntries(entries) as unknown as SummaryRow;
  }
}
