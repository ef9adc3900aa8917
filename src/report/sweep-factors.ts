import { POINT_KEYS, type PointParameters } from "../vocabulary/point-parameters.js";
import { CATEGORY_CAPACITY } from "./plot-palette.js";

/** A parameter of the sweep: one of the keys that identify a grid point. */
export type Factor = (typeof POINT_KEYS)[number];

/** How a plot's axes, legends and captions name each factor. */
export const FACTOR_TITLES: Readonly<Record<Factor, string>> = {
  generator: "generator",
  data: "data file",
  n: "n",
  d: "d",
  margin: "margin γ",
  radius: "radius R",
  offset: "offset",
  noise: "label noise",
  overlap: "overlap δ",
  c: "c",
  bias: "bias",
  eta: "η",
  init: "ŵ(0)",
  order: "order",
};

/**
 * The order in which factors are offered the channels a plot has free: the ones the bounds depend on
 * most first (the family, ŵ(0), the margin), the ones they do not depend on last (η from ŵ(0) = 0, order).
 */
const PRIORITY: readonly Factor[] = ["generator", "data", "init", "noise", "overlap", "margin", "c", "n", "d", "offset", "bias", "eta", "order", "radius"];

type FactorValue = PointParameters[Factor];

/** The distinct values of a factor over some points: numbers ascending, anything else in sweep order. */
export function factorValues(points: readonly PointParameters[], factor: Factor): FactorValue[] {
  const values = [...new Set(points.map((point) => point[factor]))];
  return values.every((value) => typeof value === "number") ? (values as number[]).sort((a, b) => a - b) : values;
}

/** The factors that take more than one value over `points`, in channel priority order. */
export function varyingFactors(points: readonly PointParameters[]): Factor[] {
  return PRIORITY.filter((factor) => new Set(points.map((point) => point[factor])).size > 1);
}

/** The varying factors of some points, split into those a plot shows and those that follow from them. */
export interface SweepFactors {
  /** Every factor that varies over the points. */
  readonly varying: readonly Factor[];
  /** The varying factors but the implied ones and the `fixed` ones (which the plot shows on an axis). */
  readonly shown: readonly Factor[];
  /** Factors whose value the others fix on these points (d = n for the orthonormal family): no channel needed. */
  readonly implied: readonly Factor[];
}

/**
 * The factors of `points` (see SweepFactors). From the lowest priority up, a factor is implied when no two
 * points agree on every other remaining factor and differ in it (a functional dependency on these points);
 * a full factorial grid implies none. `fixed` factors are never implied (they are a plot's axes).
 */
export function sweepFactors(points: readonly PointParameters[], fixed: readonly Factor[] = []): SweepFactors {
  const varying = varyingFactors(points);
  let remaining = [...varying];
  const implied: Factor[] = [];
  for (const factor of [...varying].reverse()) {
    if (fixed.includes(factor)) continue;
    const others = remaining.filter((other) => other !== factor);
    if (others.length === 0) continue;
    const seen = new Map<string, unknown>();
    const follows = points.every((point) => {
      const key = JSON.stringify(others.map((other) => point[other]));
      if (!seen.has(key)) seen.set(key, point[factor]);
      return seen.get(key) === point[factor];
    });
    if (follows) {
      implied.push(factor);
      remaining = others;
    }
  }
  return { varying, shown: remaining.filter((factor) => !fixed.includes(factor)), implied: implied.reverse() };
}

/** The caption's words for the implied factors, or nothing. */
export function describeImplied(factors: SweepFactors): string {
  if (factors.implied.length === 0) return "";
  const names = factors.implied.map((factor) => FACTOR_TITLES[factor]).join(", ");
  return `Not encoded, as the other factors fix them here: ${names}.`;
}

/**
 * Where a factor can go: a visual channel, a facet (panels in columns or rows), or `detail`: separate
 * lines or marks that nothing tells apart (the caption says so).
 */
export type Channel = "color" | "strokeDash" | "shape" | "column" | "row" | "detail";

/** The most values each channel can show legibly (a wrapped column facet takes up to 12, three a row). */
const CAPACITY: Readonly<Record<Channel, number>> = { color: CATEGORY_CAPACITY, strokeDash: 5, shape: 6, column: 12, row: 4, detail: Infinity };

/** Columns of panels side by side before they wrap, so that a figure fits 1200 px. */
export const MAX_COLUMNS = 4;

const CHANNEL_WORDS: Readonly<Record<Channel, string>> = {
  color: "colour",
  strokeDash: "dash",
  shape: "shape",
  column: "panels",
  row: "panel rows",
  detail: "one line each, not told apart",
};

/** Which factor each channel shows, and the factors no channel could take (pooled in each mark). */
export interface FactorLayout {
  readonly channels: Readonly<Partial<Record<Channel, Factor>>>;
  readonly pooled: readonly Factor[];
  /** Every factor's values, in legend order. */
  readonly values: Readonly<Partial<Record<Factor, FactorValue[]>>>;
}

/**
 * Gives each factor the first of `channels` still free that can show its values (see CAPACITY); a factor
 * none can take is pooled. A column facet of more than MAX_COLUMNS panels wraps, and then no row facet
 * is added (Vega-Lite wraps only a facet of one field).
 */
export function layoutFactors(points: readonly PointParameters[], factors: readonly Factor[], channels: readonly Channel[]): FactorLayout {
  const taken: Partial<Record<Channel, Factor>> = {};
  const pooled: Factor[] = [];
  const values: Partial<Record<Factor, FactorValue[]>> = {};
  for (const factor of factors) {
    const own = factorValues(points, factor);
    values[factor] = own;
    const wrapped = taken.column !== undefined && (values[taken.column]?.length ?? 0) > MAX_COLUMNS;
    const channel = channels.find((candidate) => taken[candidate] === undefined && own.length <= CAPACITY[candidate] && !(candidate === "row" && wrapped) && !(candidate === "column" && taken.row !== undefined && own.length > MAX_COLUMNS));
    if (channel === undefined) pooled.push(factor);
    else taken[channel] = factor;
  }
  return { channels: taken, pooled, values };
}

/** The Vega-Lite encoding of the layout's mark channels (colour, dash, shape, detail). */
export function channelEncoding(layout: FactorLayout, only: readonly Channel[] = ["color", "strokeDash", "shape", "detail"]): Record<string, unknown> {
  const encoding: Record<string, unknown> = {};
  for (const channel of only) {
    const factor = layout.channels[channel];
    if (factor === undefined || channel === "column" || channel === "row") continue;
    encoding[channel] = channel === "detail" ? { field: factor, type: "nominal" } : { field: factor, type: "nominal", sort: layout.values[factor], title: FACTOR_TITLES[factor] };
  }
  return encoding;
}

/**
 * The shape a point layer gives the factor its lines tell apart by dash (and the colour's factor where no dash is
 * used), so that an isolated point, which has no line to dash, is still told apart (a dash alone cannot be
 * seen on a dot); nothing where the layout's shape channel is taken or no such factor exists.
 */
export function markShape(layout: FactorLayout, { orColour = false }: { readonly orColour?: boolean } = {}): Record<string, unknown> {
  if (layout.channels.shape !== undefined) return {};
  const factor = layout.channels.strokeDash ?? (orColour ? layout.channels.color : undefined);
  if (factor === undefined || (layout.values[factor]?.length ?? 0) > CAPACITY.shape) return {};
  return { shape: { field: factor, type: "nominal", sort: layout.values[factor], title: FACTOR_TITLES[factor] } };
}

/**
 * A plot of one panel, or of one panel per value of the layout's facet factors: `unit` (a mark or a layer,
 * with its encoding) over `data`, each panel `width` × `height`.
 */
export function facetedSpec(layout: FactorLayout, data: readonly Record<string, unknown>[], unit: Record<string, unknown>, size: { readonly width: number; readonly height: number }): Record<string, unknown> {
  const column = layout.channels.column;
  const row = layout.channels.row;
  if (column === undefined && row === undefined) return { data: { values: data }, ...size, ...unit };
  // Each panel's header names its factor ("η = 0.1", not a bare "0.1"), upright, also for the rows (whose
  // headers Vega-Lite would otherwise rotate and push to the far left under a small title).
  const header = (factor: Factor, channel: "column" | "row") => ({
    field: factor,
    type: "nominal",
    sort: layout.values[factor],
    title: null,
    header: {
      // datum.label in parentheses: Vega-Lite substitutes a conditional for it, which a bare "+" would swallow.
      labelExpr: `${JSON.stringify(`${FACTOR_TITLES[factor]} = `).replace(/"/g, "'")} + (datum.label)`,
      labelFontSize: 12,
      labelFontWeight: "bold",
      ...(channel === "row" ? { labelAngle: 0, labelAlign: "left", labelOrient: "left", labelPadding: 6 } : {}),
    },
  });
  const panels = column === undefined ? 1 : layout.values[column]!.length;
  const wrapped = row === undefined && panels > MAX_COLUMNS;
  // Wrapped panels fill their rows evenly (5 as 3 + 2, not 4 + 1).
  const columns = wrapped ? Math.ceil(panels / Math.ceil(panels / MAX_COLUMNS)) : panels;
  const width = Math.min(size.width, Math.floor(PANELS_WIDTH / columns) - 20);
  const facet = wrapped
    ? { facet: header(column!, "column"), columns }
    : { facet: { ...(column === undefined ? {} : { column: header(column, "column") }), ...(row === undefined ? {} : { row: header(row, "row") }) } };
  return { data: { values: data }, ...facet, spec: { width, height: size.height, ...unit } };
}

/** The width the panels of one figure share: 1200 px less the y axis, the legend and the spacing. */
const PANELS_WIDTH = 860;

/** The caption's words for a layout: what each channel shows and what each mark pools. */
export function describeLayout(layout: FactorLayout): string {
  const parts: string[] = [];
  for (const channel of ["color", "strokeDash", "shape", "column", "row", "detail"] as const) {
    const factor = layout.channels[channel];
    if (factor !== undefined) parts.push(`${CHANNEL_WORDS[channel]}: ${FACTOR_TITLES[factor]}`);
  }
  if (layout.pooled.length > 0) parts.push(`pooled in each mark: ${layout.pooled.map((factor) => FACTOR_TITLES[factor]).join(", ")}`);
  return parts.length === 0 ? "" : `${parts.join("; ")}.`;
}

/** The factor fields of a grid point, to carry into a plot's data rows. */
export function factorFields(point: PointParameters, factors: readonly Factor[]): Record<string, unknown> {
  const fields: Record<string, unknown> = {};
  for (const factor of factors) fields[factor] = point[factor];
  return fields;
}

/**
 * One object per panel of the layout, naming its facet values (`{ init: "zero", d: 2 }`): a row of data
 * meant for every panel (a reference line) is copied into each, since a faceted layer has no data of its own.
 */
export function everyPanel(layout: FactorLayout): Record<string, unknown>[] {
  let panels: Record<string, unknown>[] = [{}];
  for (const channel of ["column", "row"] as const) {
    const factor = layout.channels[channel];
    if (factor === undefined) continue;
    panels = panels.flatMap((panel) => layout.values[factor]!.map((value) => ({ ...panel, [factor]: value })));
  }
  return panels;
}

/** The factors the layout shows in panels (columns, rows). */
export function facetFields(layout: FactorLayout): Factor[] {
  return (["column", "row"] as const).flatMap((channel) => (layout.channels[channel] === undefined ? [] : [layout.channels[channel]!]));
}

/** The factors the layout shows by the look of a mark (colour, shape, dash). */
export function markFields(layout: FactorLayout): Factor[] {
  return (["color", "shape", "strokeDash"] as const).flatMap((channel) => (layout.channels[channel] === undefined ? [] : [layout.channels[channel]!]));
}
