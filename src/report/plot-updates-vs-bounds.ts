import type { RunRow } from "../run/run-types.js";
import { BOUND_TITLES, boundColumn, coincidentMarks, counted, diagonalWithin, MAX_MARKS, PLOTTED_BOUNDS, plotSpec, runsShown, separatorWords, thinned, type Plot, type PlotInput, type PlottedBound } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, everyPanel, facetFields, factorFields, facetedSpec, layoutFactors, markFields, sweepFactors } from "./sweep-factors.js";

/**
 * Observed updates against each bound of the input's separator, one panel per bound (log-log, with the
 * part of y = x inside the data). Bounds that are equal on every plotted run (all four from ŵ(0) = 0:
 * docs/theory.md, "The bounds") share one panel, so no mark hides another of another colour. Runs that did not
 * converge are drawn hollow at the count they stopped at; a scatter of more than MAX_MARKS marks keeps
 * every k-th run and says so.
 */
export function updatesVsBoundsPlot(input: PlotInput): Plot | null {
  const value = (row: RunRow, bound: PlottedBound) => row[boundColumn(input.separator, bound)];
  const drawn = input.runs.filter((row) => row.status === "ok" && row.updates !== null && row.updates > 0 && PLOTTED_BOUNDS.some((bound) => (value(row, bound) ?? 0) > 0));
  if (drawn.length === 0) return null;

  const panels = equalBounds(drawn, value);
  const { kept, every } = thinned(drawn, Math.floor(MAX_MARKS / panels.length));
  const plotted = new Set(kept.map((run) => run.point));
  const sweep = sweepFactors(input.summary.filter((row) => plotted.has(row.point)));
  const factors = sweep.varying;
  const layout = layoutFactors(kept, sweep.shown, ["color", "shape", "row"]);
  const data: Record<string, unknown>[] = [];
  const xs: number[] = [];
  for (const row of kept) {
    for (const panel of panels) {
      const bound = value(row, panel.bounds[0]!);
      if (bound === null || !(bound > 0)) continue;
      xs.push(bound);
      data.push({ kind: "run", panel: panel.title, bound, updates: row.updates, converged: row.converged === true, point: row.point, run: row.run, ...factorFields(row, factors) });
    }
  }
  const diagonal = diagonalWithin(xs, kept.map((row) => row.updates!), { log: true });
  const columns = { ...layout, channels: { ...layout.channels, column: "panel" as never }, values: { ...layout.values, panel: panels.map((panel) => panel.title) } };
  for (const panel of everyPanel(columns)) for (const end of diagonal) data.push({ kind: "diagonal", ...panel, bound: end.x, updates: end.y });

  const marks = channelEncoding(layout, ["color", "shape"]);
  const axes = {
    x: { field: "bound", type: "quantitative", scale: { type: "log" }, title: "bound" },
    y: { field: "updates", type: "quantitative", scale: { type: "log" }, title: "observed updates" },
  };
  const unit = {
    layer: [
      { transform: [{ filter: "datum.kind === 'diagonal'" }], mark: { type: "line", color: "#555", strokeDash: [4, 4], aria: false }, encoding: axes },
      { transform: [{ filter: "datum.kind === 'run' && datum.converged" }], mark: { type: "point", filled: true, opacity: 0.55, size: 22, aria: false }, encoding: { ...axes, ...marks } },
      { transform: [{ filter: "datum.kind === 'run' && !datum.converged" }], mark: { type: "point", filled: false, opacity: 0.9, size: 30, aria: false }, encoding: { ...axes, ...marks } },
    ],
  };
  const spec = facetedSpec(columns, data, unit, { width: 300, height: 260 });
  relabelPanelHeader(spec);

  const notConverged = kept.filter((row) => row.converged !== true).length;
  const shared = panels.filter((panel) => panel.bounds.length > 1).map((panel) => panel.title);
  const caption = [
    `One mark: a run, at its observed updates against a bound of ${separatorWords(input.separator)} (log-log); one panel per bound.`,
    shared.length > 0 ? `${shared.join("; ")}: equal on every run drawn (as from ŵ(0) = 0), so one panel shows them.` : "",
    diagonal.length > 0
      ? "Below the dashed line y = x the bound holds; the closer to it, the tighter."
      : `Every mark lies ${Math.max(...kept.map((row) => row.updates!)) < Math.min(...xs) ? "below" : "above (a bound broken: see violations)"} y = x, which is not drawn as it does not cross the range of the data.`,
    describeLayout(layout),
    describeImplied(sweep),
    coincidentMarks(data, ["kind", "bound", "updates", "panel", ...facetFields(layout)], [...markFields(layout), "converged"]),
    notConverged > 0 ? `Hollow: ${counted(notConverged, "run")} that did not converge, at the updates made when stopped (their true count is larger).` : "",
    runsShown(input, kept.length, every),
  ];
  return {
    name: "updates-vs-bounds",
    title: "Observed updates against each bound",
    caption: caption.filter((part) => part !== "").join(" "),
    spec: plotSpec(spec, { varying: factors, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}

/** The bounds grouped by equality on every run (both absent, or equal to 12 significant digits), in table order. */
function equalBounds(runs: readonly RunRow[], value: (row: RunRow, bound: PlottedBound) => number | null): { bounds: PlottedBound[]; title: string }[] {
  const same = (a: PlottedBound, b: PlottedBound) =>
    runs.every((row) => {
      const [x, y] = [value(row, a), value(row, b)];
      return x === y || (x !== null && y !== null && Math.abs(x - y) <= 1e-12 * Math.max(Math.abs(x), Math.abs(y)));
    });
  const groups: PlottedBound[][] = [];
  for (const bound of PLOTTED_BOUNDS) {
    if (!runs.some((row) => (value(row, bound) ?? 0) > 0)) continue;
    const group = groups.find((members) => same(members[0]!, bound));
    if (group === undefined) groups.push([bound]);
    else group.push(bound);
  }
  return groups.map((bounds) => ({ bounds, title: bounds.map((bound) => BOUND_TITLES[bound]).join(" = ") }));
}

/** The panels are bounds, not a factor: their header needs no title. */
function relabelPanelHeader(spec: Record<string, unknown>): void {
  const facet = spec.facet as Record<string, unknown> | undefined;
  if (facet === undefined) return;
  const header = (facet.column ?? (facet.field === "panel" ? facet : undefined)) as Record<string, unknown> | undefined;
  if (header !== undefined) Object.assign(header, { title: null, header: { labelFontSize: 12, labelFontWeight: "bold" } });
}
