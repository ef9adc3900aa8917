import { GENERATOR_ENTRIES } from "../generators/generator-registry.js";
import { summaryMedian, type SummaryRow } from "../run/summary-types.js";
import { SEPARATOR_BOUNDS } from "../bounds/separator/separator-bounds.js";
import { boundColumn } from "../bounds/bound-columns.js";
import { beyondSeparable, SEPARATORS } from "../vocabulary/point-parameters.js";
import { tableLayout } from "../run/table-layout.js";

/** The separator bounds' names, in column order. */
const PLOTTED = SEPARATOR_BOUNDS.map((bound) => bound.name);

/** How many grid points the printed table shows; the rest are in summary.csv. */
export const TABLE_ROWS = 40;

/** The parameter columns, left-aligned; the numbers after them are right-aligned. */
const PARAMETER_COLUMNS = 10;

/**
 * The table printed at the end of a run: per grid point, the median observed updates beside the median
 * of each bound, from the planted separator and (starred) from the max-margin one, and the best bound.
 * The csv generator's points show their data file in the generator column. `groups`: the sweep's plug-in
 * bounds (docs/plugins.md), each shown after `best` by its name, planted then starred, and the worst order
 * where declared (table-layout.ts): the medians of W* (the longest order found) and of its proved upper
 * bound (W*≤), equal where the searches were exact.
 */
export function summaryTable(rows: readonly SummaryRow[], totalPoints: number, groups: readonly string[] = []): string {
  const layout = tableLayout(groups);
  const pluginBounds = layout.extraBounds;
  // Label noise and overlap get their columns where some point has them (docs/theory.md, "Beyond separable data").
  const noisy = rows.some(beyondSeparable);
  const header = ["point", "generator", "n", "d", "margin", "offset", ...(noisy ? ["noise", "overlap"] : []), "bias", "eta", "init", "order", "conv", "updates"];
  // Each separator bound of the registry, the planted separator's then (starred) the max-margin one's.
  header.push(...PLOTTED.map((name) => name), ...PLOTTED.map((name) => `${name}*`), "best");
  header.push(...pluginBounds.flatMap((name) => [name, `${name}*`]));
  if (layout.worstOrder) header.push("W*", "W*≤");
  const shown = rows.slice(0, TABLE_ROWS);
  const body = shown.map((row) => [
    String(row.point),
    row.data === null ? row.generator : `csv ${row.data}`,
    String(row.n),
    String(row.d),
    format(row.margin ?? row.c),
    format(row.offset),
    ...(noisy ? [format(row.noise), format(row.overlap)] : []),
    row.bias ? "yes" : "no",
    format(row.eta),
    row.init,
    row.order,
    `${row.converged}/${row.runs}`,
    format(row.updates.median),
    ...SEPARATORS.flatMap((separator) => PLOTTED.map((name) => format(row[boundColumn(separator, name)].median))),
    format(row.bestBound.median),
    // Each plug-in bound's planted and max-margin columns, as the tables name them (table-layout.ts).
    ...layout.extraBoundColumns.slice(0, 2 * pluginBounds.length).map((column) => format(summaryMedian(row, column))),
    // The medians of the longest order found and of the proved upper bound: equal where the searches were exact.
    ...(layout.worstOrder ? [format(summaryMedian(row, "worstOrderLower")), format(summaryMedian(row, "worstOrderUpper"))] : []),
  ]);
  const widths = header.map((title, column) => Math.max(title.length, ...body.map((cells) => cells[column]!.length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => (column < PARAMETER_COLUMNS + (noisy ? 2 : 0) ? cell.padEnd(widths[column]!) : cell.padStart(widths[column]!)))
      .join("  ")
      .trimEnd();
  const lines = [line(header), ...body.map(line)];
  if (totalPoints > shown.length) lines.push(`... ${totalPoints - shown.length} more grid points in summary.csv`);
  lines.push('Updates: median over converged runs; bounds: medians over every run. Bounds from the planted separator, * from the max-margin one; "-": not applicable, or not computed (see bounds in the experiment).');
  if (layout.worstOrder) lines.push("W*: the most updates any presentation order makes (the longest order found), W*≤ its proved upper bound: equal where the search was exact (docs/theory.md, \"The worst order\").");
  // Said only where a shown point has one (a sweep of data files alone has none: its column is all "-").
  if (shown.some((row) => (row.margin ?? row.c) !== null && (row.margin ?? row.c) !== undefined)) {
    // Each generator says what its points' margin column holds (the registry); a plug-in's is its margin key.
    const meanings = GENERATOR_ENTRIES.flatMap((entry) => (entry.marginMeaning === undefined ? [] : [entry.marginMeaning]));
    lines.push(`margin: the grid point's margin: ${[...meanings, "a plug-in generator, its margin key"].join("; ")}.`);
  }
  return `${lines.join("\n")}\n`;
}

function format(value: number | null): string {
  if (value === null) return "-";
  if (Number.isInteger(value)) return String(value);
  return Number(value.toPrecision(4)).toString();
}
