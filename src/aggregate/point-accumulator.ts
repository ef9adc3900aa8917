import { tmpdir } from "node:os";
import { join } from "node:path";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../run/execute-run.js";
import { pick, POINT_KEYS, type BoundColumn, type RatioColumn, type RunRow } from "../run/run-types.js";
import { medianOf, statistics } from "./statistics.js";
import type { Median, Statistics, SummaryRow } from "./summary-types.js";
import { ValueColumn } from "./value-column.js";

/** The numbers a summary needs of each converged run: statistics of these, medians of those. */
const STATISTIC_COLUMNS = ["updates", ...RATIO_COLUMNS, "bestRatio"] as const;
const MEDIAN_COLUMNS = ["learnerRadius", "plantedMargin", "optimalMargin", ...BOUND_COLUMNS, "bestBound"] as const;

/** Values per column held in memory before they spill to a temporary file (512 KiB a column). */
export const SPILL_AFTER = 1 << 16;

let spills = 0;
const spillPath = () => join(tmpdir(), `perceptron-lab-${process.pid}-${spills++}.f64`);

/**
 * One grid point's runs, reduced as they arrive to counts and a column of numbers per summarised
 * quantity (about 26 doubles a converged run, not the run's whole row), spilled to temporary files past
 * SPILL_AFTER values: memory stays flat however many repeats a point has, and the medians and quantiles
 * stay exact. Values keep the run order, so means are summed in the same order every time.
 */
export class PointAccumulator {
  #first: RunRow | null = null;
  #runs = 0;
  #converged = 0;
  #errors = 0;
  #violations = 0;
  #notOptimal = 0;
  readonly #columns: Map<string, ValueColumn>;

  constructor(spillAfter = SPILL_AFTER) {
    this.#columns = new Map([...STATISTIC_COLUMNS, ...MEDIAN_COLUMNS].map((name) => [name, new ValueColumn(spillPath, spillAfter)]));
  }

  add(row: RunRow): void {
    this.#first ??= row;
    this.#runs++;
    if (row.status === "error") this.#errors++;
    this.#violations += row.violations ?? 0;
    if (row.optimalStatus !== null && row.optimalStatus !== "optimal" && row.optimalStatus !== "off") this.#notOptimal++;
    if (row.status !== "ok" || row.converged !== true) return;
    this.#converged++;
    const values = row as unknown as Record<string, number | null>;
    // NaN stands for "not applicable" (null) and is dropped when the statistics are taken.
    for (const [name, column] of this.#columns) column.push(values[name] ?? NaN);
  }

  /** The point's summary row; the accumulator is spent afterwards (its memory and files released). */
  summary(): SummaryRow {
    const first = this.#first;
    if (first === null) throw new RangeError("a grid point needs at least one run");
    const take = (name: string): Float64Array => {
      const column = this.#columns.get(name)!;
      const present = column.values().filter((value) => !Number.isNaN(value));
      column.dispose();
      return present;
    };
    const stats: Record<string, Statistics> = {};
    for (const name of STATISTIC_COLUMNS) stats[name] = statistics(take(name));
    const medians: Record<string, Median> = {};
    for (const name of MEDIAN_COLUMNS) medians[name] = medianOf(take(name));
    return {
      ...pick(first, ["grid", "point", ...POINT_KEYS]),
      runs: this.#runs,
      converged: this.#converged,
      errors: this.#errors,
      violations: this.#violations,
      notOptimal: this.#notOptimal,
      updates: stats.updates!,
      learnerRadius: medians.learnerRadius!,
      plantedMargin: medians.plantedMargin!,
      optimalMargin: medians.optimalMargin!,
      ...(Object.fromEntries(BOUND_COLUMNS.map((name) => [name, medians[name]!])) as Record<BoundColumn, Median>),
      bestBound: medians.bestBound!,
      ...(Object.fromEntries(RATIO_COLUMNS.map((name) => [name, stats[name]!])) as Record<RatioColumn, Statistics>),
      bestRatio: stats.bestRatio!,
    };
  }
}
