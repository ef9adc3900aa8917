import type { RunRow } from "../run/run-types.js";
import { PointAccumulator } from "./point-accumulator.js";
import type { SummaryRow } from "./summary-types.js";

/**
 * The summary of one grid point from its runs (all of the same point, in run order). Statistics are
 * taken over the converged runs, whose updates are the true count; `converged` and `errors` say how
 * many that is.
 */
export function summarisePoint(rows: readonly RunRow[]): SummaryRow {
  const accumulator = new PointAccumulator();
  for (const row of rows) accumulator.add(row);
  return accumulator.summary();
}

export { statistics } from "./statistics.js";
