import type { RunRow } from "../run/run-types.js";
import { RUN_COLUMNS } from "./run-columns.js";

/** One line of runs.jsonl: the row's keys in RUN_COLUMNS order (non-finite numbers become null). */
export function runJsonLine(row: RunRow): string {
  const ordered: Record<string, unknown> = {};
  for (const column of RUN_COLUMNS) ordered[column] = row[column];
  return `${JSON.stringify(ordered)}\n`;
}
