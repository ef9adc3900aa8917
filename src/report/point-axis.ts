import type { SummaryRow } from "../run/summary-types.js";
import type { PlotFactors } from "./plot.js";
import { describeImplied, sweepFactors, type Factor } from "./sweep-factors.js";

/** Up to this many grid points are named on the axis by their factors; beyond, by their number. */
export const NAMED_POINTS = 100;

/** The short names a point's label gives its factors (the generator and data file stand alone). */
const LABEL_NAMES: Readonly<Record<Factor, string>> = { generator: "", data: "", n: "n", d: "d", margin: "γ", radius: "R", offset: "off", noise: "noise", overlap: "δ", c: "c", bias: "bias", eta: "η", init: "ŵ(0)", order: "" };

/**
 * The x axis of a plot with one column per grid point: each point named by the factors that vary
 * ("γ=0.05 d=2 η=1 ŵ(0)=zero"), in point order; past NAMED_POINTS points, by their number in summary.csv.
 * `label` is the field the plot's data rows carry; `factors` what its specification records.
 */
export function pointAxis(rows: readonly SummaryRow[]): { label: (row: SummaryRow) => string; x: Record<string, unknown>; width: number; factors: PlotFactors; words: string } {
  const sweep = sweepFactors(rows);
  const { varying, implied, shown } = sweep;
  const named = rows.length <= NAMED_POINTS;
  const text = (row: SummaryRow) =>
    named
      ? shown
          .flatMap((factor) => {
            if (row[factor] === null) return [];
            const value = factor === "bias" ? (row.bias ? "yes" : "no") : String(row[factor]);
            return [LABEL_NAMES[factor] === "" ? value : `${LABEL_NAMES[factor]}=${value}`];
          })
          .join(" ") || `point ${row.point}`
      : String(row.point);
  // Two points of the same factors (a grid listed twice) keep columns of their own: the later ones numbered.
  const labels = new Map<number, string>();
  const used = new Set<string>();
  for (const row of rows) {
    const own = used.has(text(row)) ? `${text(row)} #${row.point}` : text(row);
    used.add(own);
    labels.set(row.point, own);
  }
  const label = (row: SummaryRow) => labels.get(row.point) ?? text(row);
  const width = Math.min(1000, Math.max(200, rows.length * 18));
  const x = named
    ? { field: "label", type: "ordinal", sort: rows.map(label), title: null, axis: { labelAngle: -55, labelLimit: 400, labelFontSize: rows.length > 50 ? 9 : 11 } }
    : // Numbered points sort by their number: an explicit sort list of 1 096 points overflowed Vega's stack.
      { field: "point", type: "ordinal", sort: "ascending", title: "grid point (numbered as in summary.csv)", axis: { labelOverlap: true } };
  return {
    label,
    x,
    width,
    factors: named ? { varying, implied, inLabel: shown, pooled: [] } : { varying, implied: [], inLabel: [], pooled: [], inTable: varying },
    words: named ? `Each grid point is named below by the factors that vary (${shown.includes("offset") ? "off: the offset; " : ""}a factor that does not apply to a point is left out). ${describeImplied(sweep)}`.trimEnd() : `${rows.length} grid points, too many to name on the axis: numbered as in summary.csv, whose row gives each one's factors.`,
  };
}
