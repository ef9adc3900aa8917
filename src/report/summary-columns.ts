import type { SummaryRow } from "../run/summary-types.js";
import { SEPARATOR_BOUNDS } from "../bounds/separator/separator-bounds.js";
import { boundColumn } from "../bounds/bound-columns.js";
import { beyondSeparable } from "../vocabulary/point-parameters.js";
import { tableLayout } from "../run/table-layout.js";
import type { Statistics } from "../run/summary-types.js";
import type { BoundFacts } from "../vocabulary/plugin-definitions.js";

export interface ReportColumn {
  readonly title: string;
  readonly value: (row: SummaryRow) => string;
}

/**
 * The columns of a report's summary tables (HTML and Markdown): REPORT_COLUMNS, and where any point has
 * label noise or overlap, those two after the offset and, at the end, the medians over every run (converged
 * or not) of the mistakes, the pocket errors and the two Freund–Schapire bounds.
 */
export function reportColumns(summary: readonly SummaryRow[], pluginBounds: readonly BoundFacts[] = []): readonly ReportColumn[] {
  return [...withNoise(summary), ...mistakeSetColumns(summary), ...pluginBoundColumns(pluginBounds)];
}

/**
 * A plug-in bound's columns (docs/plugins.md): its medians from the planted and the max-margin separator,
 * and the largest ratio of a converged run's updates to it, which is above 1 where the bound failed.
 */
function pluginBoundColumns(bounds: readonly BoundFacts[]): ReportColumn[] {
  // The columns' names as the tables have them (table-layout.ts): each bound's planted and max-margin one.
  const { extraBoundColumns, extraRatioColumns } = tableLayout(bounds.map((bound) => bound.name));
  const cell = (row: SummaryRow, column: string) => (row as unknown as Record<string, Partial<Statistics> | undefined>)[column];
  return bounds.flatMap(({ title }, k) => {
    const [planted, optimal] = [extraBoundColumns[2 * k]!, extraBoundColumns[2 * k + 1]!];
    const ratios = [extraRatioColumns[2 * k]!, extraRatioColumns[2 * k + 1]!];
    return [
      { title: `${title} (plug-in)`, value: (row: SummaryRow) => number(cell(row, planted)?.median ?? null) },
      { title: `${title}* (plug-in)`, value: (row: SummaryRow) => number(cell(row, optimal)?.median ?? null) },
      {
        title: `updates / ${title} (max)`,
        value: (row: SummaryRow) => number(ratios.map((ratio) => cell(row, ratio)?.max ?? null).reduce<number | null>((a, b) => (a === null ? b : b === null ? a : Math.max(a, b)), null)),
      },
    ];
  });
}

/**
 * The medians of the a-posteriori mistake-set bounds, where the sweep listed mistakeSet: certificates on the
 * run's own update rounds (docs/theory.md), labelled so, and never part of `best`.
 */
function mistakeSetColumns(summary: readonly SummaryRow[]): ReportColumn[] {
  const separators = [
    { key: "plantedMistakeSetBound", title: "MS planted (a posteriori)" },
    { key: "optimalMistakeSetBound", title: "MS* (a posteriori)" },
    { key: "tightestMistakeSetBound", title: "MS at tightest FS (a posteriori)" },
  ] as const;
  return separators
    .filter(({ key }) => summary.some((row) => (row[key]?.median ?? null) !== null))
    .map(({ key, title }) => ({ title, value: (row: SummaryRow) => number(row[key]?.median ?? null) }));
}

function withNoise(summary: readonly SummaryRow[]): readonly ReportColumn[] {
  if (!summary.some(beyondSeparable)) return REPORT_COLUMNS;
  const at = REPORT_COLUMNS.findIndex((column) => column.title === "offset") + 1;
  return [
    ...REPORT_COLUMNS.slice(0, at),
    { title: "noise", value: (row) => number(row.noise) },
    { title: "overlap δ", value: (row) => number(row.overlap) },
    ...REPORT_COLUMNS.slice(at),
    { title: "mistakes (every run)", value: (row) => number(row.mistakes.median) },
    { title: "pocket errors", value: (row) => number(row.pocketErrors.median) },
    { title: "FS planted", value: (row) => number(row.plantedFreundSchapireBound.median) },
    { title: "FS tightest", value: (row) => number(row.tightestFreundSchapireBound.median) },
  ];
}

/** The columns of the report's summary tables (HTML and Markdown): parameters, then medians. */
export const REPORT_COLUMNS: readonly ReportColumn[] = [
  { title: "point", value: (row) => String(row.point) },
  { title: "generator", value: (row) => (row.data === null ? row.generator : `csv ${row.data}`) },
  { title: "n", value: (row) => String(row.n) },
  { title: "d", value: (row) => String(row.d) },
  { title: "margin", value: (row) => number(row.margin ?? row.c) },
  { title: "offset", value: (row) => number(row.offset) },
  { title: "bias", value: (row) => (row.bias ? "yes" : "no") },
  { title: "η", value: (row) => number(row.eta) },
  { title: "ŵ(0)", value: (row) => row.init },
  { title: "order", value: (row) => row.order },
  { title: "converged", value: (row) => `${row.converged}/${row.runs}` },
  { title: "updates (median)", value: (row) => number(row.updates.median) },
  { title: "updates (p90)", value: (row) => number(row.updates.p90) },
  { title: "γ*", value: (row) => number(row.optimalMargin.median) },
  ...SEPARATOR_BOUNDS.map((bound): ReportColumn => ({ title: `${bound.short}*`, value: (row) => number(row[boundColumn("optimal", bound.name)].median) })),
  { title: "best", value: (row) => number(row.bestBound.median) },
  { title: "updates / best", value: (row) => number(row.bestRatio.median) },
];

function number(value: number | null): string {
  if (value === null) return "-";
  return Number.isInteger(value) ? String(value) : Number(value.toPrecision(4)).toString();
}
