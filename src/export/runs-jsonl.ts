import type { RunRow } from "../run/run-types.js";
import { RUN_COLUMNS } from "./run-columns.js";

/**
 * One line of runs.jsonl: the row's keys in RUN_COLUMNS order (non-finite numbers become null). An array
 * replacer makes JSON.stringify write exactly these keys, in its order, without an ordered copy.
 */
export function runJsonLine(row: RunRow): string {
  return `${JSON.stringify(row, RUN_COLUMNS as string[])}\n`;
}
