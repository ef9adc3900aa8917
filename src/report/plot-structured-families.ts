import type { SummaryRow } from "../run/summary-types.js";
import { novikoff } from "../bounds/separator/novikoff.js";
import { GENERATOR_ENTRIES, plotFamilyOf } from "../generators/generator-registry.js";
import type { FamilyPlot } from "../generators/generator-entry.js";
import { ratioColumn } from "../bounds/bound-columns.js";
import { coincidentMarks, counted, diagonalWithin, MAX_MARKS, plotSpec, runsShown, scaleFor, thinned, type Plot, type PlotInput } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, everyPanel, facetFields, factorFields, facetedSpec, layoutFactors, markFields, markShape, sweepFactors } from "./sweep-factors.js";

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
      `One mark: a run of a structured family from ŵ(0) = 0, its observed updates against the count docs/theory.md predicts (${expectedRules()}); the keys that set that count, on x.`,
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
 * Each generator's own plot (GeneratorEntry.familyPlot): its ratio updates / (R/γ)² of the planted separator
 * against one of its keys, one mark a grid point (median, band p25 to p75), theory's ratio as a dashed curve drawn
 * as the function it is (sampled finely over the swept range, not joined through the swept values) and its limit
 * as a rule.
 */
export function generatorPlots(input: PlotInput): Plot[] {
  return GENERATOR_ENTRIES.flatMap((entry) => {
    const plot = entry.familyPlot === undefined ? null : familyPlot(input, entry.name, entry.familyPlot);
    return plot === null ? [] : [plot];
  });
}

/** Each family's exact count in words, from the registry (GeneratorEntry.expectedRule): "n for orthonormal, …". */
function expectedRules(): string {
  return GENERATOR_ENTRIES.flatMap((entry) => (entry.expectedRule === undefined ? [] : [`${entry.expectedRule} for ${entry.name}`])).join(", ");
}

/** The sweep's x values at which theory's curve is drawn: finely, so that its steps and bends show. */
const CURVE_SAMPLES = 400;

function familyPlot(input: PlotInput, generator: string, family: FamilyPlot): Plot | null {
  // The ratio to Novikoff's (R/γ)² of the planted separator (its registry entry names the column).
  const ratioOf = (row: SummaryRow) => row[ratioColumn("planted", novikoff.name)];
  const xOf = (row: SummaryRow) => (row as unknown as Record<string, number>)[family.x]!;
  const rows = input.summary.filter((row) => row.generator === generator && ratioOf(row).median !== null);
  if (new Set(rows.map(xOf)).size < 2) return null;
  const sweep = sweepFactors(rows, [family.x]);
  const others = sweep.shown;
  const layout = layoutFactors(rows, others, ["color", "strokeDash", "detail"]);
  const data = rows.map((row) => ({ point: row.point, [family.x]: xOf(row), median: ratioOf(row).median, p25: ratioOf(row).p25, p75: ratioOf(row).p75, ...factorFields(row, sweep.varying) }));
  const xs = [...new Set(rows.map(xOf))].sort((a, b) => a - b);
  const [low, high] = [xs[0]!, xs.at(-1)!];
  const xScale = scaleFor(xs);
  // Evenly over the axis as drawn: geometrically on a log axis, where even steps in c left its first decade
  // (the curve's steps and bends) a few samples.
  const logAxis = xScale.type === "log";
  const curve = Array.from({ length: CURVE_SAMPLES + 1 }, (_, k) => {
    const at = logAxis ? low * (high / low) ** (k / CURVE_SAMPLES) : low + ((high - low) * k) / CURVE_SAMPLES;
    return { [family.x]: at, ratio: family.ratio(at) };
  });
  const x = { field: family.x, type: "quantitative", scale: xScale, title: family.x };
  // Padded, so that the limit's rule, often the lowest value, lies inside the plot and not on its x axis.
  const y = { type: "quantitative", scale: { zero: false, nice: false, padding: 14 }, title: "updates / (R/γ)²" };
  const grouping = channelEncoding(layout);
  const spec = facetedSpec(layout, data, {
    layer: [
      { data: { values: [{ limit: family.limit }] }, mark: { type: "rule", color: "#888", strokeDash: [2, 3] }, encoding: { y: { field: "limit", ...y } } },
      { data: { values: curve }, mark: { type: "line", color: "#555", strokeDash: [6, 4] }, encoding: { x, y: { field: "ratio", ...y } } },
      // Hollow, and shaped as well as coloured: marks that coincide (η changes no count from ŵ(0) = 0) both show,
      // a circle around a square, where two filled dots blended into a colour of neither.
      { mark: { type: "point", filled: false, strokeWidth: 1.6, size: 60, opacity: 1 }, encoding: { x, y: { field: "median", ...y }, ...grouping, ...markShape(layout, { orColour: true }) } },
      { mark: { type: "area", opacity: 0.15 }, encoding: { x, y: { field: "p25", ...y }, y2: { field: "p75" }, ...(grouping.color === undefined ? {} : { color: grouping.color }) } },
    ],
  }, { width: 520, height: 280 });
  return {
    name: family.name,
    title: family.title,
    caption: [family.caption, describeLayout(layout), describeImplied(sweep)].filter((part) => part !== "").join(" "),
    spec: plotSpec(spec, { varying: sweep.varying, implied: sweep.implied, inLabel: [], pooled: layout.pooled }),
  };
}
