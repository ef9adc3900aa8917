import { plotFamilyOf } from "../generators/generator-registry.js";
import type { SummaryRow } from "../run/summary-types.js";
import { plotSpec, scaleFor, type Plot, type PlotInput } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, factorFields, facetedSpec, FACTOR_TITLES, layoutFactors, markShape, sweepFactors } from "./sweep-factors.js";

/** What the plot draws of each grid point: the mistakes, and the two Freund–Schapire bounds. */
const SERIES = [
  { key: "mistakes", title: "mistakes" },
  { key: "plantedFreundSchapireBound", title: "FS bound, planted u" },
  { key: "tightestFreundSchapireBound", title: "FS bound, tightest (u, γ)" },
] as const satisfies readonly { key: keyof SummaryRow; title: string }[];

/**
 * Beyond separable data (docs/theory.md): the mistakes the runs made against the Freund–Schapire bound at the
 * epochs they made, as the label noise grows. One mark per grid point of the planted family and series:
 * the median over every run (converged or cut off at maxEpochs, as the bound holds at any epoch count)
 * with its p25–p75 band. Drawn where the sweep has two noise rates or more and runs from ŵ(0) = 0.
 */
export function freundSchapirePlot(input: PlotInput): Plot | null {
  const rows = input.summary.filter((row) => plotFamilyOf(row.generator) === "planted" && row.noise !== null && row.plantedFreundSchapireBound.median !== null);
  if (new Set(rows.map((row) => row.noise)).size < 2) return null;
  const sweep = sweepFactors(rows, ["noise"]);
  const layout = layoutFactors(rows, sweep.shown, ["strokeDash", "column", "row", "detail"]);
  const series = SERIES.filter((entry) => rows.some((row) => row[entry.key].median !== null));
  const data = rows.flatMap((row) =>
    series.flatMap((entry) => {
      const stats = row[entry.key];
      if (stats.median === null) return [];
      return [{ point: row.point, series: entry.title, median: stats.median, p25: stats.p25, p75: stats.p75, ...factorFields(row, sweep.varying) }];
    }),
  );
  const x = { field: "noise", type: "quantitative", scale: { zero: true }, title: "label noise (flip probability)" };
  const yScale = scaleFor(data.flatMap((entry) => [entry.p25!, entry.p75!]));
  const colour = { field: "series", type: "nominal", sort: series.map((entry) => entry.title), title: "", legend: { labelLimit: 240 } };
  const grouping = { ...channelEncoding(layout), color: colour };
  const bandDetail = (["strokeDash", "detail"] as const).flatMap((channel) => (layout.channels[channel] === undefined ? [] : [{ field: layout.channels[channel], type: "nominal" }]));
  const line = { mark: { type: "line", strokeWidth: 1.5 }, encoding: { x, y: { field: "median", type: "quantitative", scale: yScale, title: "count (median; band p25–p75)" }, ...grouping } };
  const band = {
    mark: { type: "area", opacity: 0.15 },
    encoding: { x, y: { field: "p25", type: "quantitative", scale: yScale }, y2: { field: "p75" }, color: colour, ...(bandDetail.length > 0 ? { detail: bandDetail } : {}) },
  };
  const points = {
    mark: { type: "point", filled: true, size: 30 },
    encoding: { x, y: { field: "median", type: "quantitative", scale: yScale }, color: colour, ...markShape(layout), tooltip: [{ field: "point" }, { field: "series" }, { field: "median" }, { field: "p25" }, { field: "p75" }] },
  };
  const spec = facetedSpec(layout, data, { layer: [line, band, points] }, { width: 440, height: 280 });
  const cutOff = rows.reduce((sum, row) => sum + row.runs - row.converged - row.errors, 0);
  const caption = [
    `One mark: a grid point of the planted family from ŵ(0) = 0 and one series (colour): the median over every run of the mistakes it made, or of its Freund–Schapire (FS) bound ((R + √E·D₁)/γ)² at the E epochs it made (docs/theory.md, "Beyond separable data"), along the planted separator with its best γ and over every (u, γ); band: p25 to p75. Lines join the points that differ only in ${FACTOR_TITLES.noise}.`,
    describeLayout(layout),
    describeImplied(sweep),
    cutOff > 0 ? `${cutOff} of the ${rows.reduce((sum, row) => sum + row.runs, 0)} runs were cut off at maxEpochs (non-separable data do not converge); they are in these statistics, as the bound holds at any epoch count.` : "",
  ];
  return {
    name: "freund-schapire-vs-noise",
    title: "Mistakes against the Freund–Schapire bound as the label noise grows",
    caption: caption.filter((part) => part !== "").join(" "),
    spec: plotSpec(spec, { varying: sweep.varying, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}
