import type { SummaryRow } from "../run/summary-types.js";

/**
 * summary.json is a JSON array with one grid point per line, written as the points complete:
 * summaryJsonItem(row, 0) opens the array, summaryJsonEnd(count) closes it.
 */
export function summaryJsonItem(row: SummaryRow, index: number): string {
  return `${index === 0 ? "[\n" : ",\n"}  ${JSON.stringify(row)}`;
}

export function summaryJsonEnd(count: number): string {
  return count === 0 ? "[]\n" : "\n]\n";
}
