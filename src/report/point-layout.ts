import type { SummaryRow } from "../run/summary-types.js";
import { scaleFor, type PlotFactors } from "./plot.js";
import { channelEncoding, describeImplied, describeLayout, factorFields, facetedSpec, factorValues, FACTOR_TITLES, layoutFactors, sweepFactors, type Factor, type FactorLayout } from "./sweep-factors.js";

/**
 * The layout of a plot with one mark per grid point (the updates per point, the share converged), as small
 * multiples instead of one axis of rotated compound labels: the factor with the most values on x, the next
 * ones in colour, shape, panels and panel rows, and any factor left over side by side at each x (each point
 * its own slot, so marks never overplot), named in the caption. Readable at 48 points and at 500.
 */
export interface PointLayout {
  /** The x and xOffset encodings of every layer. */
  readonly position: Record<string, unknown>;
  /** The x encoding alone, and the slots side by side at each x in order (a data row's `slot`), for a plot that offsets more than points. */
  readonly x: Record<string, unknown>;
  readonly slots: readonly string[];
  /** The colour and shape encodings of every layer. */
  readonly marks: Record<string, unknown>;
  /** A data row's factor fields and its slot. */
  readonly fields: (row: SummaryRow) => Record<string, unknown>;
  /** The whole specification: `unit` (a layer over `data`) in panels of `height`. */
  readonly spec: (data: readonly Record<string, unknown>[], unit: Record<string, unknown>, height: number) => Record<string, unknown>;
  readonly factors: PlotFactors;
  /** The caption's words for the layout. */
  readonly words: string;
}

/** The most values of a numeric factor drawn as columns on x; beyond, a continuous axis. */
const MAX_COLUMNS_ON_X = 16;

/** A panel's width for each point side by side at one x (a slot), in px, and the most a panel takes. */
const SLOT_WIDTH = 11;
const PANEL_WIDTH = { least: 140, most: 380 } as const;

/** `markChannels`: the channels the marks give factors (none for a bar whose colour is taken). */
export function pointLayout(rows: readonly SummaryRow[], markChannels: readonly ("color" | "shape")[] = ["color", "shape"], { marksPerSlot = 1 }: { readonly marksPerSlot?: number } = {}): PointLayout {
  const sweep = sweepFactors(rows);
  const shown = sweep.shown;
  // On x, the shown factor with the most values (the first such, in the order channels are offered).
  const valuesOf = new Map(shown.map((factor) => [factor, factorValues(rows, factor)]));
  const xFactor = shown.reduce<Factor | null>((best, factor) => (best === null || valuesOf.get(factor)!.length > valuesOf.get(best)!.length ? factor : best), null);
  const others = shown.filter((factor) => factor !== xFactor);
  const placed = layoutFactors(rows, others, [...markChannels, "column", "row"]);
  // What no channel took sits side by side at each x: encoded as detail (one mark each), named in the caption.
  const beside = placed.pooled;
  const layout: FactorLayout = { ...placed, pooled: [] };
  const slotFactors = [placed.channels.color, placed.channels.shape, ...beside].filter((factor): factor is Factor => factor !== undefined);
  const slotOf = (row: SummaryRow) => JSON.stringify(slotFactors.map((factor) => row[factor]));
  const slots = [...new Set(rows.map(slotOf))];
  // A numeric factor of many values is a continuous axis (137 dimensions are not 137 labelled columns); the
  // points at one x then share it, told apart by colour and shape only.
  const values = xFactor === null ? [] : valuesOf.get(xFactor)!;
  const continuous = values.length > MAX_COLUMNS_ON_X && values.every((value) => typeof value === "number");
  const x =
    xFactor === null
      ? { field: "all", type: "nominal", title: null, axis: { labels: false, ticks: false } }
      : continuous
        ? { field: xFactor, type: "quantitative", scale: scaleFor(values as number[]), title: FACTOR_TITLES[xFactor] }
        : // A factor that does not apply to some points (c of a non-three-point family) is null there: "n/a".
          { field: xFactor, type: "ordinal", sort: values, title: FACTOR_TITLES[xFactor], axis: { labelAngle: 0, labelOverlap: "greedy", labelExpr: "isValid(datum.value) ? datum.label : 'n/a'" } };
  const xValues = Math.max(1, values.length);
  const width = continuous ? PANEL_WIDTH.most : Math.max(PANEL_WIDTH.least, Math.min(PANEL_WIDTH.most, xValues * Math.max(1, slots.length) * marksPerSlot * SLOT_WIDTH + xValues * 8));
  const position = { x, ...(slots.length > 1 && !continuous ? { xOffset: { field: "slot", type: "nominal", sort: slots } } : {}) };
  const marks = { ...channelEncoding(layout, ["color", "shape"]), ...(beside.length > 0 ? { detail: beside.map((factor) => ({ field: factor, type: "nominal" })) } : {}) };
  const words = [
    xFactor === null ? "" : `x: ${FACTOR_TITLES[xFactor]}.`,
    describeLayout(layout),
    beside.length > 0
      ? continuous
        ? `Not told apart, at the same x: the points that differ in ${beside.map((factor) => FACTOR_TITLES[factor]).join(", ")}.`
        : `Side by side at each x, not told apart, in the order of summary.csv: the points that differ in ${beside.map((factor) => FACTOR_TITLES[factor]).join(", ")}.`
      : "",
    describeImplied(sweep),
  ];
  return {
    position,
    x,
    slots: continuous ? [] : slots,
    marks,
    fields: (row) => ({ ...factorFields(row, sweep.varying), slot: slotOf(row), ...(xFactor === null ? { all: "" } : {}) }),
    spec: (data, unit, height) => facetedSpec(layout, data, unit, { width, height }),
    factors: { varying: sweep.varying, implied: sweep.implied, inLabel: [], pooled: [] },
    words: words.filter((part) => part !== "").join(" "),
  };
}
