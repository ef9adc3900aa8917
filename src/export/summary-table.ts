import type { SummaryRow } from "../aggregate/summary-types.js";

/** How many grid points the printed table shows; the rest are in summary.csv. */
export const TABLE_ROWS = 40;

/**
 * The table printed at the end of a run: per grid point, the median observed updates beside the
 * median of each bound of the planted separator.
 */
export function summaryTable(rows: readonly SummaryRow[], totalPoints: number): string {
  const header = ["point", "generator", "n", "d", "margin", "offset", "bias", "eta", "init", "order", "conv", "updates", "novikoff", "snapp", "hu", "optimised"];
  const body = rows.slice(0, TABLE_ROWS).map((row) => [
    String(row.point),
    row.generator,
    String(row.n),
    String(row.d),
    format(row.margin),
    format(row.offset),
    row.bias ? "yes" : "no",
    format(row.eta),
    row.init,
    row.order,
    `${row.converged}/${row.runs}`,
    format(row.updates.median),
    format(row.plantedNovikoffBound.median),
    format(row.plantedSnappBound.median),
    format(row.plantedHuBound.median),
    format(row.plantedOptimisedBound.median),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells.map((cell, column) => (column < 10 ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!))).join("  ").trimEnd();
  const lines = [line(header), ...body.map(line)];
  if (totalPoints > rows.length || rows.length > TABLE_ROWS) {
    lines.push(`... ${totalPoints - Math.min(rows.length, TABLE_ROWS)} more grid points in summary.csv`);
  }
  lines.push("(medians over converged runs; bounds of the planted separator; \"-\": not applicable)");
  return `${lines.join("\n")}\n`;
}

function format(value: number | null): string {
  if (value === null) return "-";
  if (Number.isInteger(value)) return String(value);
  return Number(value.toPrecision(4)).toString();
}
