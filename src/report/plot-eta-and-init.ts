import { BOUND_TITLES, boundColumn, PLOTTED_BOUNDS, plotSpec, separatorWords, type Plot, type PlotInput } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, factorFields, facetedSpec, layoutFactors, sweepFactors, type Factor } from "./sweep-factors.js";

/**
 * The bounds against η, one panel per ŵ(0) in the experiment's order: every bound depends on η and ŵ(0)
 * only through v = ŵ(0)/η (docs/theory.md, "The bounds"), so the plot is drawn where that can show: ŵ(0)
 * varies, or η does with some ŵ(0) ≠ 0. One mark: a grid point's median of one bound; colour: the bound;
 * every other varying factor a dash, a row of panels or its own lines.
 */
export function etaAndInitPlot(input: PlotInput): Plot | null {
  const rows = input.summary.filter((row) => PLOTTED_BOUNDS.some((bound) => (row[boundColumn(input.separator, bound)].median ?? 0) > 0));
  const inits = new Set(rows.map((row) => row.init));
  const etas = new Set(rows.map((row) => row.eta));
  if (!(inits.size > 1 || (etas.size > 1 && [...inits].some((init) => init !== "zero")))) return null;

  const sweep = sweepFactors(rows, ["eta", "init"]);
  const factors = sweep.varying;
  const layout = layoutFactors(rows, (["init", ...sweep.shown] as Factor[]).filter((factor) => factors.includes(factor)), ["column", "strokeDash", "row", "detail"]);
  const data = rows.flatMap((row) =>
    PLOTTED_BOUNDS.flatMap((bound) => {
      const median = row[boundColumn(input.separator, bound)].median;
      return median === null || !(median > 0) ? [] : [{ point: row.point, bound: BOUND_TITLES[bound], median, ...factorFields(row, factors) }];
    }),
  );
  const encoding = {
    x: { field: "eta", type: "quantitative", scale: { type: etas.size > 1 && Math.min(...etas) > 0 ? "log" : "linear" }, title: "η" },
    y: { field: "median", type: "quantitative", scale: { type: "log" }, title: "median bound" },
    color: { field: "bound", type: "nominal", sort: PLOTTED_BOUNDS.map((bound) => BOUND_TITLES[bound]), title: "bound" },
    ...channelEncoding(layout, ["strokeDash", "detail"]),
  };
  // Points in a layer after the line's, so that the legends show the line's colours and dashes.
  const points = { mark: { type: "point", filled: true, size: 25 }, encoding: { x: encoding.x, y: encoding.y, color: encoding.color, ...channelEncoding(layout, ["detail"]) } };
  const spec = facetedSpec(layout, data, { layer: [{ mark: { type: "line", strokeWidth: 1.5 }, encoding }, points] }, { width: 220, height: 200 });
  const caption = [
    `One mark: a grid point's median of one bound of ${separatorWords(input.separator)} over its converged runs, against η; colour: the bound.`,
    describeLayout(layout),
    describeImplied(sweep),
    "From ŵ(0) = 0 every bound is free of η, and Novikoff's, Snapp's and N(v) are equal (one line shows the three), Hu's D² = (R²+1)²/(4γ²) above them unless R = 1; from a random ŵ(0) they depend on ŵ(0)/η, and Novikoff's does not apply.",
  ];
  return {
    name: "eta-and-init",
    title: "The effect of η and ŵ(0) on the bounds",
    caption: caption.filter((part) => part !== "").join(" "),
    spec: plotSpec(spec, { varying: factors, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}
