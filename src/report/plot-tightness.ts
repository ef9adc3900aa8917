import { plotFamilyOf } from "../generators/generator-registry.js";
import { counted, plotSpec, pointsNotDrawn, scaleFor, type Plot, type PlotInput } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, factorFields, facetedSpec, FACTOR_TITLES, layoutFactors, markShape, sweepFactors } from "./sweep-factors.js";

/**
 * The tightness of the best bound against one factor (the planted margin or the dimension): one mark
 * per grid point of the planted family, the median over its converged runs of updates / best bound, in a
 * band from their p25 to their p75. Every other factor that varies gets a channel or a panel, so a mark
 * never pools points the sweep tells apart (unless there are too many: then the caption says so).
 */
export function tightnessPlot(input: PlotInput, against: "margin" | "d"): Plot | null {
  const planted = input.summary.filter((row) => plotFamilyOf(row.generator) === "planted");
  const rows = planted.filter((row) => row.bestRatio.median !== null);
  if (new Set(rows.map((row) => row[against])).size < 2) return null;
  const sweep = sweepFactors(rows, [against]);
  const others = sweep.shown;
  const layout = layoutFactors(rows, others, ["color", "strokeDash", "column", "row", "detail"]);
  const data = rows.map((row) => ({ point: row.point, median: row.bestRatio.median, p25: row.bestRatio.p25, p75: row.bestRatio.p75, ...factorFields(row, sweep.varying) }));
  const ratios = rows.flatMap((row) => [row.bestRatio.p25!, row.bestRatio.p75!]);
  const x = { field: against, type: "quantitative", scale: scaleFor(rows.map((row) => row[against]!)), title: against === "margin" ? "planted margin γ" : "dimension d" };
  const yScale = scaleFor(ratios);
  const grouping = channelEncoding(layout);
  // The band is grouped by every factor a line is (colour, dash, detail), so each line has its own band.
  const bandDetail = (["strokeDash", "detail"] as const).flatMap((channel) => (layout.channels[channel] === undefined ? [] : [{ field: layout.channels[channel], type: "nominal" }]));
  // The line's layer first: the legends take their symbols from it (a band's pale fill, a point's dot, would
  // hide the dashes); the bands are drawn after it, faint enough not to hide it.
  const line = { mark: { type: "line", strokeWidth: 1.5 }, encoding: { x, y: { field: "median", type: "quantitative", scale: yScale, title: "updates / best bound" }, ...grouping } };
  const band = {
    mark: { type: "area", opacity: 0.15 },
    encoding: { x, y: { field: "p25", type: "quantitative", scale: yScale }, y2: { field: "p75" }, ...(grouping.color === undefined ? {} : { color: grouping.color }), ...(bandDetail.length > 0 ? { detail: bandDetail } : {}) },
  };
  const points = {
    mark: { type: "point", filled: true, size: 30 },
    encoding: { x, y: { field: "median", type: "quantitative", scale: yScale }, ...(grouping.color === undefined ? {} : { color: grouping.color }), ...markShape(layout), tooltip: [{ field: "point" }, { field: "median" }, { field: "p25" }, { field: "p75" }] },
  };
  const unit = { layer: [line, band, points] };
  const spec = facetedSpec(layout, data, unit, { width: 440, height: 280 });
  const notConverged = planted.reduce((sum, row) => sum + row.runs - row.converged, 0);
  const caption = [
    `One mark: a grid point of the planted family, the median over its converged runs of observed updates / the best bound (the smallest that applies, over both separators); band: their p25 to p75. Lines join the points that differ only in ${FACTOR_TITLES[against]}.`,
    describeLayout(layout),
    describeImplied(sweep),
    notConverged > 0 ? `${counted(notConverged, "run")} did not converge (or failed) and are not in these statistics: see "Share of converged runs".` : "",
    pointsNotDrawn(planted, rows),
  ];
  return {
    name: against === "margin" ? "ratio-vs-margin" : "ratio-vs-dimension",
    title: against === "margin" ? "Tightness against the margin" : "Tightness against the dimension",
    caption: caption.filter((part) => part !== "").join(" "),
    spec: plotSpec(spec, { varying: sweep.varying, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}
