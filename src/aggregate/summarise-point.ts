import type { RunRow } from "../run/run-types.js";
import { PointSummariser } from "./point-summariser.js";
import { digestRows } from "./run-digest.js";
import type { SummaryRow } from "../run/summary-types.js";

/**
 * The summary of one grid point from its runs (all of the same point, in run order). Statistics are
 * taken over the converged runs, whose updates are the true count; `converged` and `errors` say how
 * many that is.
 */
export function summarisePoint(rows: readonly RunRow[]): SummaryRow {
  const summariser = new PointSummariser();
  if (summariser.add(digestRows(rows)).length > 0) throw new RangeError("summarisePoint takes the runs of one grid point");
  const summary = summariser.finish();
  if (summary === null) throw new RangeError("a grid point needs at least one run");
  return summary;
}

export { statistics } from "./statistics.js";
