import type { RunRow } from "../run/run-types.js";
import { csvLine, csvLines } from "./csv-line.js";
import { RUN_COLUMNS } from "./run-columns.js";

export function runsCsvHeader(): string {
  return csvLine(RUN_COLUMNS);
}

/** The lines of several rows, in one call of the stringifier. */
export function runCsvLines(rows: readonly RunRow[]): string {
  return csvLines(rows.map((row) => RUN_COLUMNS.map((column) => row[column])));
}
