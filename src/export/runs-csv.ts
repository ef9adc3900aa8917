import { csvLine } from "./csv-line.js";
import { RUN_COLUMNS } from "./run-columns.js";

/** The header line of runs.csv (its rows are written by runLines). */
export function runsCsvHeader(): string {
  return csvLine(RUN_COLUMNS);
}
