import { counted, OKABE_ITO, plotSpec, pointsNotDrawn, scaleFor, type Plot, type PlotInput } from "./plot.js";
import { pointLayout } from "./point-layout.js";

/**
 * The updates of each grid point's converged runs, as summary.json gives them: a dot at the median, a thick bar
 * from p25 to p75 and a thin line from p10 to p90 (log y where they span decades, so that one slow point does
 * not squash the rest), laid out as small multiples by the sweep's factors (point-layout.ts).
 */
export function updatesPerPointPlot(input: PlotInput): Plot | null {
  const rows = input.summary.filter((row) => row.updates.median !== null);
  if (rows.length === 0) return null;
  const layout = pointLayout(rows);
  const data = rows.map((row) => ({ point: row.point, ...layout.fields(row), p10: row.updates.p10, p25: row.updates.p25, median: row.updates.median, p75: row.updates.p75, p90: row.updates.p90, converged: row.converged, runs: row.runs }));
  const y = { type: "quantitative", scale: scaleFor(rows.flatMap((row) => [row.updates.p10!, row.updates.p90!])), title: "updates of the converged runs" };
  // A rule takes no shape (Vega-Lite would add a symbol at its ends): the bars get the colour alone.
  const { shape: _shape, ...lineMarks } = layout.marks;
  const unit = {
    layer: [
      // The dot's layer first: the legends take their symbols from it.
      {
        mark: { type: "point", filled: true, size: 28, opacity: 1 },
        encoding: { ...layout.position, y: { field: "median", ...y }, ...layout.marks, tooltip: [{ field: "point" }, { field: "median" }, { field: "p25" }, { field: "p75" }, { field: "converged" }, { field: "runs" }] },
      },
      { mark: { type: "rule", strokeWidth: 1 }, encoding: { ...layout.position, y: { field: "p10", ...y }, y2: { field: "p90" }, ...lineMarks } },
      { mark: { type: "rule", strokeWidth: 3.5, opacity: 0.6 }, encoding: { ...layout.position, y: { field: "p25", ...y }, y2: { field: "p75" }, ...lineMarks } },
    ],
  };
  // Over every point, drawn or not: the runs of a point with no converged run did not converge either.
  const notConverged = input.summary.reduce((sum, row) => sum + row.runs - row.converged, 0);
  return {
    name: "updates-per-point",
    title: "Updates per grid point",
    caption: [
      "One mark: a grid point's converged runs; dot at the median of their observed updates, thick bar from p25 to p75, thin line from p10 to p90.",
      layout.words,
      notConverged > 0 ? `${counted(notConverged, "run")} did not converge (or failed): not in these statistics; see "Share of converged runs".` : "",
      pointsNotDrawn(input.summary, rows),
    ]
      .filter((part) => part !== "")
      .join(" "),
    spec: plotSpec(layout.spec(data, unit, 220), layout.factors),
  };
}

/** The share of each grid point's runs that converged, did not, or failed: drawn when not all converged. */
export function convergedSharePlot(input: PlotInput): Plot | null {
  const rows = input.summary;
  const notConverged = rows.reduce((sum, row) => sum + row.runs - row.converged - row.errors, 0);
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  if (notConverged + errors === 0) return null;
  const layout = pointLayout(rows, []);
  const outcomes = ["converged", "not converged", "error"] as const;
  const data = rows.flatMap((row) => {
    const counts = [row.converged, row.runs - row.converged - row.errors, row.errors];
    return outcomes.map((outcome, index) => ({ point: row.point, ...layout.fields(row), outcome, rank: index, share: counts[index]! / row.runs, runs: counts[index] }));
  });
  const unit = {
    mark: { type: "bar" },
    encoding: {
      ...layout.position,
      y: { field: "share", type: "quantitative", stack: "zero", title: "share of the point's runs", axis: { format: "%" }, scale: { domain: [0, 1] } },
      // Blue, vermillion and grey (Okabe and Ito's palette): told apart with any colour vision, unlike green and red.
      color: { field: "outcome", type: "nominal", sort: [...outcomes], scale: { domain: [...outcomes], range: [OKABE_ITO.blue, OKABE_ITO.vermillion, "#555"] }, title: "outcome" },
      order: { field: "rank", type: "quantitative", sort: "ascending" },
      ...layout.marks,
      tooltip: [{ field: "point" }, { field: "outcome" }, { field: "runs" }],
    },
  };
  return {
    name: "converged-share",
    title: "Share of converged runs",
    caption: [
      `One bar: a grid point's runs, split into those that converged, those that had not within ${input.maxEpochs} epochs (${notConverged} in all) and those that failed (${errors}).`,
      "Only converged runs enter the statistics and the tightness plots; the others are in runs.csv.",
      layout.words,
    ].join(" "),
    spec: plotSpec(layout.spec(data, unit, 180), layout.factors),
  };
}
