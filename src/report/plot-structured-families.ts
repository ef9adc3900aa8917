import type { SummaryRow } from "../run/summary-types.js";
import { novikoff } from "../bounds/separator/novikoff.js";
import { plotFamilyOf } from "../generators/generator-registry.js";
import { ratioColumn } from "../bounds/bound-columns.js";
import { coincidentMarks, counted, diagonalWithin, MAX_MARKS, plotSpec, runsShown, scaleFor, thinned, type Plot, type PlotInput } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, everyPanel, facetFields, factorFields, facetedSpec, layoutFactors, markFields, sweepFactors } from "./sweep-factors.js";

/**
 * The structured families' own claim (docs/theory.md, "Structured families"): from ŵ(0) = 0 a run makes exactly
 * the expected number of updates (n for orthonormal and Hadamard, 1 + ⌊c²/2⌋ for three-point). One mark a
 * run, observed against expected (log-log) with y = x: every mark on the line, whatever η or the order.
 */
export function expectedUpdatesPlot(input: PlotInput): Plot | null {
  const runs = input.runs.filter((row) => row.status === "ok" && row.expectedUpdates !== null && row.updates !== null && row.updates > 0);
  if (runs.length === 0) return null;
  const { kept, every } = thinned(runs, MAX_MARKS);
  const points = input.summary.filter((row) => kept.some((run) => run.point === row.point));
  // n and c set the expected count, which is the x axis: they are shown there, not by a channel.
  const sweep = sweepFactors(points, ["n", "c"]);
  const factors = sweep.varying;
  const layout = layoutFactors(kept, sweep.shown, ["column", "color", "shape", "detail"]);
  const data: Record<string, unknown>[] = kept.map((row) => ({ kind: "run", expected: row.expectedUpdates, updates: row.updates, converged: row.converged === true, point: row.point, run: row.run, ...factorFields(row, factors) }));
  const [xScale, yScale] = [scaleFor(kept.map((row) => row.expectedUpdates!)), scaleFor(kept.map((row) => row.updates!))];
  const diagonal = diagonalWithin(kept.map((row) => row.expectedUpdates!), kept.map((row) => row.updates!), { log: xScale.type === "log" && yScale.type === "log" });
  const axes = {
    x: { field: "expected", type: "quantitative", scale: xScale, title: "expected updates (docs/theory.md)" },
    y: { field: "updates", type: "quantitative", scale: yScale, title: "observed updates" },
  };
  const marks = channelEncoding(layout, ["color", "shape"]);
  const layer = [
    { data: { values: diagonal }, mark: { type: "line", color: "#555", strokeDash: [4, 4], aria: false }, encoding: { x: { ...axes.x, field: "x" }, y: { ...axes.y, field: "y" } } },
    { mark: { type: "point", filled: true, opacity: 0.6, size: 40, aria: false }, encoding: { ...axes, ...marks, ...channelEncoding(layout, ["detail"]) } },
  ];
  // Layers with data of their own cannot be faceted: the diagonal then rides in the data, as a kind of row.
  const faceted = layout.channels.column !== undefined;
  if (faceted) {
    for (const panel of everyPanel(layout)) for (const end of diagonal) data.push({ kind: "diagonal", ...panel, expected: end.x, updates: end.y });
    layer[0] = { transform: [{ filter: "datum.kind === 'diagonal'" }], mark: layer[0]!.mark, encoding: axes } as never;
    layer[1] = { transform: [{ filter: "datum.kind === 'run'" }], ...layer[1]! } as never;
  }
  const spec = facetedSpec(layout, data, { layer }, { width: 440, height: 320 });
  const off = kept.filter((row) => row.updates !== row.expectedUpdates).length;
  return {
    name: "expected-updates",
    title: "The structured families: observed against expected updates",
    caption: [
      "One mark: a run of a structured family from ŵ(0) = 0, its observed updates against the count docs/theory.md predicts (n for orthonormal and Hadamard, 1 + ⌊c²/2⌋ for three-point); n and c set that count, on x.",
      off === 0 ? "Every run drawn lies on the dashed line y = x." : `${counted(off, "run")} off the line y = x: a broken claim (each is counted in violations).`,
      describeLayout(layout),
      describeImplied(sweep),
      coincidentMarks(data, ["kind", "expected", "updates", ...facetFields(layout)], markFields(layout)),
      runsShown(input, kept.length, every),
    ]
      .filter((part) => part !== "")
      .join(" "),
    spec: plotSpec(spec, { varying: factors, implied: sweep.implied, inLabel: [], pooled: [...layout.pooled, ...factors.filter((factor) => factor === "n" || factor === "c")] }),
  };
}

/**
 * The three-point family's ratio updates / (R/γ)² against c: (1 + ⌊c²/2⌋)/(1 + c²), which tends to 1/2
 * (docs/theory.md). One mark a grid point (median, band p25 to p75), the formula as a dashed curve at the swept
 * c, and the limit 1/2 as a rule.
 */
export function threePointRatioPlot(input: PlotInput): Plot | null {
  // The ratio to Novikoff's (R/γ)² of the planted separator (its registry entry names the column).
  const ratioOf = (row: SummaryRow) => row[ratioColumn("planted", novikoff.name)];
  const rows = input.summary.filter((row) => plotFamilyOf(row.generator) === "half-ratio" && ratioOf(row).median !== null);
  if (new Set(rows.map((row) => row.c)).size < 2) return null;
  const sweep = sweepFactors(rows, ["c"]);
  const others = sweep.shown;
  const layout = layoutFactors(rows, others, ["color", "strokeDash", "detail"]);
  const data = rows.map((row) => ({ point: row.point, median: ratioOf(row).median, p25: ratioOf(row).p25, p75: ratioOf(row).p75, ...factorFields(row, sweep.varying) }));
  const cs = [...new Set(rows.map((row) => row.c!))].sort((a, b) => a - b);
  const formula = cs.map((c) => ({ c, ratio: (1 + Math.floor((c * c) / 2)) / (1 + c * c) }));
  const x = { field: "c", type: "quantitative", scale: scaleFor(cs), title: "c" };
  const y = { type: "quantitative", scale: { zero: false }, title: "updates / (R/γ)²" };
  const grouping = channelEncoding(layout);
  const spec = facetedSpec(layout, data, {
    layer: [
      { data: { values: [{ limit: 0.5 }] }, mark: { type: "rule", color: "#888", strokeDash: [2, 3] }, encoding: { y: { field: "limit", ...y } } },
      { data: { values: formula }, mark: { type: "line", color: "#555", strokeDash: [6, 4] }, encoding: { x, y: { field: "ratio", ...y } } },
      { mark: { type: "point", filled: true, size: 50 }, encoding: { x, y: { field: "median", ...y }, ...grouping } },
      { mark: { type: "area", opacity: 0.15 }, encoding: { x, y: { field: "p25", ...y }, y2: { field: "p75" }, ...(grouping.color === undefined ? {} : { color: grouping.color }) } },
    ],
  }, { width: 520, height: 280 });
  return {
    name: "three-point-ratio",
    title: "The three-point family: the ratio tends to 1/2",
    caption: [
      "One mark: a grid point of the three-point family, the median over its converged runs of updates / (R/γ)² (band: p25 to p75); dashed curve: (1 + ⌊c²/2⌋)/(1 + c²) from docs/theory.md at the swept c; dotted rule: its limit 1/2.",
      describeLayout(layout),
      describeImplied(sweep),
    ]
      .filter((part) => part !== "")
      .join(" "),
    spec: plotSpec(spec, { varying: sweep.varying, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}
