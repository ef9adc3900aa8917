import { summaryMedian } from "../run/summary-types.js";
import { capitalised } from "../bounds/bound-choice.js";
import { BOUND_TITLES, boundColumn, OKABE_ITO, PLOTTED_BOUNDS, plotSpec, separatorWords, type Plot, type PlotInput } from "./plot.js";
import { pointLayout } from "./point-layout.js";
import { FACTOR_TITLES } from "./sweep-factors.js";
import { POINT_KEYS } from "../vocabulary/point-parameters.js";

/** The registry's first bound (Novikoff's): the one the sandwich and the ratio plot set against W*. */
const FIRST = PLOTTED_BOUNDS[0]!;
const QUANTITIES = ["updates (this order)", "W* (worst order)", BOUND_TITLES[FIRST], "best bound"] as const;
const SHAPES = ["circle", "diamond", "square", "triangle-up"];
const COLOURS = [OKABE_ITO.blue, OKABE_ITO.vermillion, OKABE_ITO.bluishGreen, OKABE_ITO.reddishPurple];

/**
 * The sandwich (docs/theory.md, "The worst order"): per grid point, on one log axis, the run's updates, W* (the
 * most updates any order makes; a bar from the longest order found to the proved upper bound where the search
 * gave a bracket), Novikoff's bound and the best bound, each the median over the point's runs. updates ≤ W* ≤
 * every bound: the gap below W* is the order's luck, the gap above it the proof's slack. Drawn where the sweep
 * listed worstOrder.
 */
export function worstOrderPlot(input: PlotInput): Plot | null {
  const rows = input.summary.filter((row) => summaryMedian(row, "worstOrderLower") !== null);
  if (rows.length === 0) return null;
  // Small multiples by the sweep's factors (point-layout.ts); the four quantities side by side within each point's slot.
  const layout = pointLayout(rows, [], { marksPerSlot: QUANTITIES.length });
  const first = boundColumn(input.separator, FIRST);
  const values = rows.flatMap((row) => {
    const lower = summaryMedian(row, "worstOrderLower")!;
    const upper = summaryMedian(row, "worstOrderUpper") ?? lower;
    const quantities = [row.updates.median, lower, summaryMedian(row, first), row.bestBound.median];
    const fields = layout.fields(row);
    return quantities.flatMap((value, k) =>
      value === null || !(value > 0) ? [] : [{ point: row.point, ...fields, offset: `${String(fields.slot)} ${QUANTITIES[k]!}`, quantity: QUANTITIES[k]!, rank: k, value, ...(k === 1 ? { upper } : {}) }],
    );
  });
  const brackets = values.filter((value) => value.rank === 1 && value.upper !== undefined && value.upper > value.value);
  const y = { field: "value", type: "quantitative", scale: { type: "log" }, title: "updates (median over the point's runs)" };
  // The four side by side within a point's slot, so that equal values (the best bound is often Novikoff's) stay
  // visible; on a continuous x (a factor of many values) they share the point's x.
  const offsets = layout.slots.length === 0 ? [] : layout.slots.flatMap((slot) => QUANTITIES.map((quantity) => `${slot} ${quantity}`));
  const position = { x: layout.x, ...(offsets.length === 0 ? {} : { xOffset: { field: "offset", type: "nominal", sort: offsets, scale: { domain: offsets } } }) };
  const detail = layout.marks.detail === undefined ? {} : { detail: layout.marks.detail };
  // One data set for both layers (the tests and a restyling user read it at the top): the bars are its W* rows with an upper end above.
  const unit = {
    layer: [
      ...(brackets.length === 0
        ? []
        : [
            {
              transform: [{ filter: "datum.rank === 1 && datum.upper > datum.value" }],
              mark: { type: "rule", color: OKABE_ITO.vermillion, strokeWidth: 2 },
              encoding: { ...position, y, y2: { field: "upper" }, ...detail, tooltip: [{ field: "point" }, { field: "value", title: "W* ≥" }, { field: "upper", title: "W* ≤" }] },
            },
          ]),
      {
        mark: { type: "point", filled: true, size: 60, opacity: 0.9 },
        encoding: {
          ...position,
          y,
          ...detail,
          shape: { field: "quantity", type: "nominal", sort: [...QUANTITIES], scale: { domain: [...QUANTITIES], range: SHAPES }, title: null },
          color: { field: "quantity", type: "nominal", sort: [...QUANTITIES], scale: { domain: [...QUANTITIES], range: COLOURS }, title: null, legend: { labelLimit: 260 } },
          tooltip: [{ field: "point" }, { field: "quantity" }, { field: "value", format: ".4~g" }],
        },
      },
    ],
  };
  const exact = rows.filter((row) => summaryMedian(row, "worstOrderUpper") === summaryMedian(row, "worstOrderLower")).length;
  return {
    name: "worst-order",
    title: "The order's luck and the proof's slack: updates ≤ W* ≤ the bounds",
    caption: [
      "Per grid point, medians over its runs: the updates of the point's order, W* (the most updates any presentation order makes on the same data), Novikoff's (R/γ)² and the best bound, from " + separatorWords(input.separator) + ".",
      "Below W*: how lucky the order was. Above it: how loose the proof is even against the unluckiest order (docs/theory.md, \"The worst order\").",
      exact === rows.length ? "Every point's median W* is exact." : `A bar spans the longest order found to the proved upper bound where the searches stopped at their budget (${rows.length - exact} of ${rows.length} points).`,
      layout.words,
    ]
      .filter((text) => text !== "")
      .join(" "),
    spec: plotSpec(layout.spec(values, unit, 240), layout.factors),
  };
}

/**
 * W* / bound against the margin: how loose each bound is against the worst order, one mark per grid point (the
 * median over its runs of W* / bound where the search was exact), Novikoff's and the best bound's. Drawn where the
 * sweep listed worstOrder and its points have a margin.
 */
export function worstRatioPlot(input: PlotInput): Plot | null {
  const columns = [
    { column: `${input.separator}${capitalised(FIRST)}WorstRatio`, name: `W* / ${BOUND_TITLES[FIRST]}` },
    { column: "bestWorstRatio", name: "W* / best bound" },
  ];
  // W* is the data set's, whatever the order: the points that differ in their order alone are one mark (the first).
  const drawnRows = input.summary.filter((row) => row.margin !== null && row.margin !== undefined && columns.some(({ column }) => summaryMedian(row, column) !== null));
  const others = POINT_KEYS.filter((key) => key !== "margin" && key !== "order" && new Set(drawnRows.map((row) => row[key])).size > 1);
  const seen = new Set<string>();
  const values = drawnRows.flatMap((row) => {
    const key = JSON.stringify(POINT_KEYS.filter((name) => name !== "order").map((name) => row[name]));
    if (seen.has(key)) return [];
    seen.add(key);
    return columns.flatMap(({ column, name }) => {
      const ratio = summaryMedian(row, column);
      return ratio === null ? [] : [{ point: row.point, margin: row.margin, ...Object.fromEntries(others.map((other) => [other, row[other]])), ratio, quantity: name }];
    });
  });
  const pooledOrders = new Set(drawnRows.map((row) => row.order)).size > 1;
  if (values.length === 0 || new Set(values.map((value) => value.margin)).size < 2) return null;
  const low = Math.min(...values.map((value) => value.ratio));
  const margins = [...new Set(values.map((value) => value.margin as number))].sort((a, b) => a - b);
  const names = columns.map(({ name }) => name);
  const spec = {
    data: { values },
    width: 360,
    height: 220,
    mark: { type: "point", filled: true, opacity: 0.85 },
    encoding: {
      // The axis spans the margins swept (ticks at each), not the decades around them.
      x: { field: "margin", type: "quantitative", scale: { type: "log", domain: [margins[0]! / 1.25, margins.at(-1)! * 1.25], nice: false }, axis: { values: margins }, title: "margin γ" },
      y: { field: "ratio", type: "quantitative", scale: { domain: [Math.min(0.1 * Math.floor(10 * low), 0.9), 1] }, title: "W* / bound (median of exact runs)" },
      shape: { field: "quantity", type: "nominal", sort: names, scale: { domain: names, range: ["circle", "triangle-up"] }, title: null },
      color: { field: "quantity", type: "nominal", sort: names, scale: { domain: names, range: [OKABE_ITO.bluishGreen, OKABE_ITO.reddishPurple] }, title: null, legend: { labelLimit: 260 } },
      // The second drawn smaller on the first: where the best bound is Novikoff's, both stay visible.
      size: { field: "quantity", type: "nominal", sort: names, scale: { domain: names, range: [110, 40] }, title: null, legend: { labelLimit: 260 } },
      // The other factors that vary: separate marks, named in the tooltip.
      ...(others.length === 0 ? {} : { detail: others.map((field) => ({ field, type: "nominal" })) }),
      tooltip: [{ field: "point" }, { field: "margin" }, ...others.map((field) => ({ field })), { field: "quantity" }, { field: "ratio", format: ".3f" }],
    },
  };
  return {
    name: "worst-ratio-vs-margin",
    title: "How loose the bounds are against the worst order",
    caption:
      "One mark per grid point and bound: the median over the point's runs of W* / bound, where W* (the most updates any order makes) was found exactly, from " +
      separatorWords(input.separator) +
      ". 1 would be a bound no order can beat by a single update; the distance below 1 is the proof's own slack, whatever the order (docs/theory.md, \"The worst order\")." +
      (pooledOrders ? " W* is the data set's, whatever the order of the run: the grid points that differ in their order alone are one mark." : "") +
      (others.length > 0 ? ` Points that differ in ${others.map((other) => FACTOR_TITLES[other]).join(", ")} are separate marks (the tooltip names them).` : ""),
    spec: plotSpec(spec, { varying: ["margin", ...others], implied: [], inLabel: [], pooled: pooledOrders ? ["order"] : [] }),
  };
}
