import type { RunRow } from "../run/run-types.js";
import { PointAccumulator } from "./point-accumulator.js";
import type { SummaryRow } from "./summary-types.js";

/**
 * Streaming summaries: rows arrive in run order, and a grid point's runs are consecutive, so only the
 * current point is held, reduced to the numbers its summary needs (see PointAccumulator).
 */
export class PointSummariser {
  #point: number | null = null;
  #accumulator = new PointAccumulator();

  /** Adds a row; returns the previous point's summary when this row starts a new point. */
  add(row: RunRow): SummaryRow | null {
    let finished: SummaryRow | null = null;
    if (this.#point !== null && this.#point !== row.point) {
      finished = this.#accumulator.summary();
      this.#accumulator = new PointAccumulator();
    }
    this.#point = row.point;
    this.#accumulator.add(row);
    return finished;
  }

  /** The last point's summary, if any rows are pending. */
  finish(): SummaryRow | null {
    if (this.#point === null) return null;
    this.#point = null;
    const summary = this.#accumulator.summary();
    this.#accumulator = new PointAccumulator();
    return summary;
  }
}
