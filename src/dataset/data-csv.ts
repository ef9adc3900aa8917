import { csvLine } from "../export/csv-line.js";
import type { DataSet } from "../vocabulary/data-set.js";
import { LABEL_COLUMN, type CsvDataSet } from "../experiment/read-data-csv.js";

/**
 * A data set as the CSV that `fit --data` reads: its features (a CSV's own names, else x1..xd), then
 * `label` (±1). Numbers are written in their shortest round-trip form, so reading the file back gives the
 * same doubles.
 */
export function dataSetCsv(data: DataSet | CsvDataSet): string {
  const names = "features" in data ? data.features : Array.from({ length: data.d }, (_, j) => `x${j + 1}`);
  const lines = [csvLine([...names, LABEL_COLUMN])];
  for (let i = 0; i < data.n; i++) {
    lines.push(csvLine([...data.x.subarray(i * data.d, (i + 1) * data.d), data.y[i]!]));
  }
  return lines.join("");
}
