import type { RunRow } from "../run/run-types.js";
import { csvLine } from "./csv-line.js";
import { RUN_COLUMNS } from "./run-columns.js";

export function runsCsvHeader(): string {
  return csvLine(RUN_COLUMNS);
}

export function runCsvLine(row: RunRow): string {
  return csvLine(RUN_COLUMNS.map((column) => row[column]));
}
