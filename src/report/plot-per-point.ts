import { counted, OKABE_ITO, plotSpec, pointsNotDrawn, scaleFor, type Plot, type PlotInput } from "./plot.js";
import { pointAxis } from "./point-axis.js";

/**
 * The updates of each grid point's converged runs, as summary.json gives them: a box from p25 to p75,
 * whiskers from p10 to p90 and a tick at the median (log y where they span decades, so that one slow
 * point does not squash the rest).
 */
export function updatesPerPointPlot(input: PlotInput): Plot | null {
  const rows = input.summary.filter((row) => row.updates.median !== null);
  if (rows.length === 0) return null;
  const axis = pointAxis(rows);
  const data = rows.map((row) => ({ point: row.point, label: axis.label(row), p10: row.updates.p10, p25: row.updates.p25, median: row.updates.median, p75: row.updates.p75, p90: row.updates.p90, converged: row.converged, runs: row.runs }));
  const y = { type: "quantitative", scale: scaleFor(rows.flatMap((row) => [row.updates.p10!, row.updates.p90!])), title: "updates of the converged runs" };
  const spec = {
    data: { values: data },
    width: axis.width,
    height: 260,
    layer: [
      { mark: { type: "rule", color: "#4c78a8" }, encoding: { x: axis.x, y: { field: "p10", ...y }, y2: { field: "p90" } } },
      { mark: { type: "bar", color: "#9ecae9", stroke: "#4c78a8", size: Math.max(3, Math.min(12, Math.floor(axis.width / rows.length) - 4)) }, encoding: { x: axis.x, y: { field: "p25", ...y }, y2: { field: "p75" } } },
      {
        mark: { type: "tick", color: "#222", thickness: 2, size: Math.max(4, Math.min(14, Math.floor(axis.width / rows.length) - 2)) },
        encoding: { x: axis.x, y: { field: "median", ...y }, tooltip: [{ field: "point" }, { field: "label" }, { field: "median" }, { field: "p25" }, { field: "p75" }, { field: "converged" }, { field: "runs" }] },
      },
    ],
  };
  // Over every point, drawn or not: the runs of a point with no converged run did not converge either.
  const notConverged = input.summary.reduce((sum, row) => sum + row.runs - row.converged, 0);
  return {
    name: "updates-per-point",
    title: "Updates per grid point",
    caption: [
      "One column: a grid point's converged runs; box from their p25 to p75 of the observed updates, whiskers from p10 to p90, black tick at the median.",
      axis.words,
      notConverged > 0 ? `${counted(notConverged, "run")} did not converge (or failed): not in these statistics; see "Share of converged runs".` : "",
      pointsNotDrawn(input.summary, rows),
    ]
      .filter((part) => part !== "")
      .join(" "),
    spec: plotSpec(spec, axis.factors),
  };
}

/** The share of each grid point's runs that converged, did not, or failed: drawn when not all converged. */
export function convergedSharePlot(input: PlotInput): Plot | null {
  const rows = input.summary;
  const notConverged = rows.reduce((sum, row) => sum + row.runs - row.converged - row.errors, 0);
  const errors = rows.reduce((sum, row) => sum + row.errors, 0);
  if (notConverged + errors === 0) return null;
  const axis = pointAxis(rows);
  const outcomes = ["converged", "not converged", "error"] as const;
  const data = rows.flatMap((row) => {
    const counts = [row.converged, row.runs - row.converged - row.errors, row.errors];
    return outcomes.map((outcome, index) => ({ point: row.point, label: axis.label(row), outcome, rank: index, share: counts[index]! / row.runs, runs: counts[index] }));
  });
  const spec = {
    data: { values: data },
    width: axis.width,
    height: 200,
    mark: { type: "bar" },
    encoding: {
      x: axis.x,
      y: { field: "share", type: "quantitative", stack: "zero", title: "share of the point's runs", axis: { format: "%" }, scale: { domain: [0, 1] } },
      // Blue, vermillion and grey (Okabe and Ito's palette): told apart with any colour vision, unlike green and red.
      color: { field: "outcome", type: "nominal", sort: [...outcomes], scale: { domain: [...outcomes], range: [OKABE_ITO.blue, OKABE_ITO.vermillion, "#555"] }, title: "outcome" },
      order: { field: "rank", type: "quantitative", sort: "ascending" },
      tooltip: [{ field: "point" }, { field: "label" }, { field: "outcome" }, { field: "runs" }],
    },
  };
  return {
    name: "converged-share",
    title: "Share of converged runs",
    caption: [
      `One column: a grid point's runs, split into those that converged, those that had not within ${input.maxEpochs} epochs (${notConverged} in all) and those that failed (${errors}).`,
      "Only converged runs enter the statistics and the tightness plots; the others are in runs.csv.",
      axis.words,
    ].join(" "),
    spec: plotSpec(spec, axis.factors),
  };
}
