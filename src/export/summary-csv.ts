import type { SummaryRow } from "../run/summary-types.js";
import { csvLine, type CsvValue } from "./csv-line.js";

/**
 * summary.csv flattens the nested statistics of summary.json with dots: `updates.median`,
 * `plantedNovikoffRatio.p90`, the same names as the JSON paths.
 */
export function flattenSummary(row: SummaryRow): [string, CsvValue][] {
  return columns(row, (key, stat, value): [string, CsvValue] => [stat === null ? key : `${key}.${stat}`, value]);
}

export function summaryCsvHeader(row: SummaryRow): string {
  return csvLine(flattenSummary(row).map(([key]) => key));
}

/** A grid point's line: its values only (naming every column again for every line cost ~15 µs a point). */
export function summaryCsvLine(row: SummaryRow): string {
  return csvLine(columns(row, (_key, _stat, value) => value));
}

/** `column` of each column of summary.csv, in order: a field of the row, or a statistic (`stat`) of one. */
function columns<T>(row: SummaryRow, column: (key: string, stat: string | null, value: CsvValue) => T): T[] {
  const out: T[] = [];
  for (const key in row) {
    const value = (row as unknown as Record<string, unknown>)[key];
    if (value !== null && typeof value === "object") {
      for (const stat in value) out.push(column(key, stat, (value as Record<string, CsvValue>)[stat]!));
    } else {
      out.push(column(key, null, value as CsvValue));
    }
  }
  return out;
}
