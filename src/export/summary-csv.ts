import type { SummaryRow } from "../aggregate/summary-types.js";
import { csvLine, type CsvValue } from "./csv-line.js";

/**
 * summary.csv flattens the nested statistics of summary.json with dots: `updates.median`,
 * `plantedNovikoffRatio.p90`, the same names as the JSON paths.
 */
export function flattenSummary(row: SummaryRow): [string, CsvValue][] {
  const entries: [string, CsvValue][] = [];
  for (const [key, value] of Object.entries(row)) {
    if (value !== null && typeof value === "object") {
      for (const [stat, statValue] of Object.entries(value)) entries.push([`${key}.${stat}`, statValue as CsvValue]);
    } else {
      entries.push([key, value as CsvValue]);
    }
  }
  return entries;
}

export function summaryCsvHeader(row: SummaryRow): string {
  return csvLine(flattenSummary(row).map(([key]) => key));
}

export function summaryCsvLine(row: SummaryRow): string {
  return csvLine(flattenSummary(row).map(([, value]) => value));
}
