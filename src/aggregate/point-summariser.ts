import type { RunRow } from "../run/run-types.js";
import { summarisePoint } from "./summarise-point.js";
import type { SummaryRow } from "./summary-types.js";

/**
 * Streaming summaries: rows arrive in run order, and a grid point's runs are consecutive, so only the
 * current point's rows are held. Memory grows with `repeats`, never with the sweep.
 */
export class PointSummariser {
  #rows: RunRow[] = [];

  /** Adds a row; returns the previous point's summary when this row starts a new point. */
  add(row: RunRow): SummaryRow | null {
    const current = this.#rows[0];
    let finished: SummaryRow | null = null;
    if (current !== undefined && current.point !== row.point) {
      finished = summarisePoint(this.#rows);
      this.#rows = [];
    }
    this.#rows.push(row);
    return finished;
  }

  /** The last point's summary, if any rows are pending. */
  finish(): SummaryRow | null {
    if (this.#rows.length === 0) return null;
    const summary = summarisePoint(this.#rows);
    this.#rows = [];
    return summary;
  }
}
