import { csvLine } from "./csv-line.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

/** The header line of runs.csv (its rows are written by runLines): the layout's columns. */
export function runsCsvHeader(layout: TableLayout = BUILT_IN): string {
  return csvLine(layout.columns);
}
