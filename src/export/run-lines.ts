import type { RunRow } from "../run/run-types.js";
import { runCsvLines } from "./runs-csv.js";
import { runJsonLine } from "./runs-jsonl.js";

/** The lines of a batch of rows in runs.jsonl and runs.csv, in order. */
export interface RunLines {
  readonly jsonl: string;
  readonly csv: string;
}

/**
 * Formats a batch of rows for both run tables. The pool's workers call it, so that formatting (about as
 * costly as writing) runs on every thread instead of the one coordinator (see BatchOutput).
 */
export function runLines(rows: readonly RunRow[]): RunLines {
  return { jsonl: rows.map(runJsonLine).join(""), csv: runCsvLines(rows) };
}
