import { PAPER_DPI, PAPER_WIDTHS } from "../vocabulary/result-files.js";
import { renderSvg } from "./render-svg.js";
import { PAPER_FONT, svgSize, svgToPdf, svgToPng } from "./render-paper.js";

/**
 * A report's plots as a journal prints them (report --figures paper): each redrawn at a one-column (3.5 in) and a
 * two-column (7 in) width, with text in points at the size a page shows it (7 pt tick labels, 8 pt titles), not
 * a screen's plot shrunk until its labels are 3 pt. One SVG px is one PDF point. The views' widths and heights
 * are scaled together (the plot keeps its shape) until the whole figure, labels and legend included, is as wide
 * as the column; what cannot shrink further (a legend wider than a narrow column) is scaled down as a picture.
 */

export type PaperWidth = (typeof PAPER_WIDTHS)[number];

/** The look of a paper figure: one embedded font, sizes in points. */
const PAPER_CONFIG = {
  font: PAPER_FONT,
  axis: { labelFontSize: 7, titleFontSize: 8, titleFontWeight: "normal", labelOverlap: "greedy", labelPadding: 2, titlePadding: 4, tickSize: 3, gridColor: "#e4e4e4", domainWidth: 0.6, tickWidth: 0.6, tickCount: 5 },
  legend: { labelFontSize: 7, titleFontSize: 8, titleFontWeight: "normal", symbolSize: 30, rowPadding: 2, padding: 2 },
  header: { labelFontSize: 8, titleFontSize: 8, titleFontWeight: "normal", labelPadding: 2, titlePadding: 2 },
  title: { fontSize: 9, fontWeight: "normal" },
  text: { fontSize: 7 },
  view: { strokeWidth: 0.6 },
  facet: { spacing: 8 },
  concat: { spacing: 8 },
} as const;

/** The smallest and largest share of a plot's screen size that a paper figure's views take. */
const SHRINK = { least: 0.12, most: 2 } as const;

/** Keys of a specification under which no view's size is found. */
const NOT_VIEWS = new Set(["encoding", "mark", "params", "transform", "resolve", "header", "axis", "legend"]);

/** A font size a plot set for the screen, at the paper's: titles 8 pt, labels 7 pt, a panel's header 8 pt. */
function paperFontSize(key: string, within: string | null): number {
  return key.startsWith("title") || within === "header" ? 8 : 7;
}

/**
 * The specification with every view's width and height (numbers) times `factor`, its font sizes the paper's (a
 * plot's own sizes in its headers and axes included), bold headers plain, and the paper look.
 */
export function paperSpec(spec: Record<string, unknown>, factor: number, narrow = false): Record<string, unknown> {
  const viewWidth = smallestViewWidth(spec);
  // A panel at least as tall as its y title drawn along it (TITLE_PT_A_CHARACTER), so that the
  // titles of panel rows one above the other do not run into each other.
  const titleHeight = Math.ceil(TITLE_PT_A_CHARACTER * longestTitle(spec, "y"));
  // And as wide as its x title, so that the titles of panels side by side do not run into each other.
  const titleWidth = Math.ceil(TITLE_PT_A_CHARACTER * longestTitle(spec, "x"));
  const scale = (node: unknown, views: boolean, within: string | null): unknown => {
    if (Array.isArray(node)) return node.map((item) => scale(item, views, within));
    if (node === null || typeof node !== "object") return node;
    const copy: Record<string, unknown> = {};
    for (const [key, value] of Object.entries(node)) {
      if (views && key === "width" && typeof value === "number") copy[key] = Math.max(20, titleWidth, Math.round(value * factor));
      else if (views && key === "height" && typeof value === "number") copy[key] = Math.max(narrow ? NARROW_HEIGHT : 20, titleHeight, Math.round(value * factor));
      else if (key.endsWith("FontSize") && typeof value === "number") copy[key] = paperFontSize(key, within);
      else if (key.endsWith("FontWeight") && value === "bold") copy[key] = "normal";
      else if (key === "data" || key === "usermeta" || key === "config") copy[key] = value;
      else copy[key] = scale(value, views && !NOT_VIEWS.has(key), key);
    }
    // An axis hides the tick labels that would overlap (a log axis's explicit decades included); a header's label
    // is cut to its panel's width rather than run into the next one.
    if (within === "axis" && copy.labelOverlap === undefined) copy.labelOverlap = "greedy";
    // A narrow panel's log axis labels every other decade (10, 1 000, 100 000), its ticks still at each.
    if (within === "axis" && narrow && Array.isArray(copy.values) && copy.values.length > 3 && viewWidth * factor < 80) {
      const decades = copy.values as number[];
      copy.labelExpr = `indexof(${JSON.stringify(decades.filter((_, k) => k % 2 === 0))}, datum.value) >= 0 ? datum.label : ''`;
    }
    // Vega measures text in Node by an estimate, 0.8 em a character; DejaVu Sans's run ~0.55 em: a label the
    // estimate cuts at 1.45 times its panel's width (and the gap to the next) is within them as drawn.
    if (within === "header" && copy.labelOrient !== "left") copy.labelLimit = Math.max(40, Math.round(1.45 * (viewWidth * factor + PAPER_CONFIG.facet.spacing)));
    // A row's header takes a band as wide as its estimated label, at most ROW_HEADER points.
    if (within === "header" && copy.labelOrient === "left") copy.labelLimit = ROW_HEADER;
    return copy;
  };
  const scaled = scale(narrow ? narrowed(spec) : spec, true, null) as Record<string, unknown>;
  const range = (spec.config as { range?: unknown } | undefined)?.range;
  // A narrow column puts the legends under the plot, where they take height instead of the panels' width.
  const legend = narrow ? { ...PAPER_CONFIG.legend, orient: "bottom", direction: "horizontal", columns: 2 } : PAPER_CONFIG.legend;
  return { ...scaled, config: { ...PAPER_CONFIG, legend, ...(range === undefined ? {} : { range }) } };
}

/** An 8 pt title's width a character in DejaVu Sans, in points (~0.59 em): what a panel leaves its axis titles. */
const TITLE_PT_A_CHARACTER = 4.7;

/** A narrow figure's least panel height, in points: its y title (~16 characters at 8 pt) fits beside it. */
const NARROW_HEIGHT = 80;

/** The widest band a row's header takes, in points: vega's estimate of 20 characters at 8 pt ("order = most-violated"). */
const ROW_HEADER = 130;

/** The most panels side by side in a narrow column's figure. */
const NARROW_COLUMNS = 2;

/**
 * The specification laid out for a narrow column: a grid of panels wider than tall turned on its side (the
 * rows' factor across, the columns' down: 4 bounds × 2 dimensions become 2 × 4), wrapped panels at most
 * NARROW_COLUMNS across. Each header keeps its own look but takes the place's orientation.
 */
function narrowed(spec: Record<string, unknown>): Record<string, unknown> {
  const facet = spec.facet as Record<string, Record<string, unknown> | undefined> | undefined;
  if (facet === undefined) return spec;
  if (typeof spec.columns === "number") return { ...spec, columns: Math.min(spec.columns, NARROW_COLUMNS) };
  const { column, row } = facet;
  if (column === undefined || typeof column.field !== "string") return spec;
  const values = ((spec.data as { values?: Record<string, unknown>[] } | undefined)?.values ?? []);
  const count = (field: unknown) => new Set(values.map((datum) => datum[field as string])).size;
  const across = count(column.field);
  const down = row === undefined ? 1 : count(row.field);
  if (across <= Math.max(down, NARROW_COLUMNS)) return spec;
  // Headers' placement: a row's label upright on the left, a column's above its panel.
  const ROW_PLACE = ["labelAngle", "labelAlign", "labelOrient", "labelPadding"];
  const asColumn = (channel: Record<string, unknown>) => {
    const header = { ...(channel.header as Record<string, unknown> | undefined) };
    for (const key of ROW_PLACE) delete header[key];
    return { ...channel, header };
  };
  const asRow = (channel: Record<string, unknown>) => ({ ...channel, header: { ...(channel.header as Record<string, unknown> | undefined), labelAngle: 0, labelAlign: "left", labelOrient: "left", labelPadding: 4 } });
  if (row === undefined) {
    const { column: _across, ...rest } = facet;
    return { ...spec, facet: { ...rest, row: asRow(column) } };
  }
  return { ...spec, facet: { ...facet, column: asColumn(row), row: asRow(column) } };
}

/**
 * Calls `visit` with every key and value of the specification's objects, depth first, never inside its inline
 * data; it descends into a value where `visit` returns true.
 */
function walkSpec(node: unknown, visit: (key: string, value: unknown) => boolean): void {
  if (Array.isArray(node)) return node.forEach((item) => walkSpec(item, visit));
  if (node === null || typeof node !== "object") return;
  for (const [key, value] of Object.entries(node)) if (key !== "data" && visit(key, value)) walkSpec(value, visit);
}

/** The length in characters of the longest title an encoding of the specification sets on `channel`. */
function longestTitle(spec: Record<string, unknown>, channel: "x" | "y"): number {
  let longest = 0;
  walkSpec(spec, (key, value) => {
    const title = key === channel && value !== null && typeof value === "object" ? (value as { title?: unknown }).title : undefined;
    if (typeof title === "string") longest = Math.max(longest, title.length);
    return true;
  });
  return longest;
}

/** The smallest numeric width a view of the specification sets (300 where none does). */
function smallestViewWidth(spec: Record<string, unknown>): number {
  let least = Number.POSITIVE_INFINITY;
  walkSpec(spec, (key, value) => {
    if (key === "width" && typeof value === "number") least = Math.min(least, value);
    return !NOT_VIEWS.has(key) && key !== "config";
  });
  return Number.isFinite(least) ? least : 300;
}

/**
 * The specification and SVG of a paper figure `width` wide: the views' factor found from two renderings (the
 * figure's width is close to linear in it: fixed labels plus scaled views), then corrected once.
 */
export async function fitPaperFigure(spec: Record<string, unknown>, width: PaperWidth): Promise<{ readonly spec: Record<string, unknown>; readonly svg: string }> {
  const target = width.inches * 72;
  const widthAt = async (factor: number) => {
    const fitted = paperSpec(spec, factor, width.inches < 5);
    const svg = await renderSvg(fitted);
    return { factor, spec: fitted, svg, width: svgSize(svg).width };
  };
  let [a, b] = [await widthAt(1), await widthAt(0.5)];
  for (let step = 0; step < 2; step++) {
    const slope = (a.width - b.width) / (a.factor - b.factor);
    if (!(slope > 0)) break;
    const factor = Math.min(SHRINK.most, Math.max(SHRINK.least, b.factor + (target - b.width) / slope));
    [a, b] = [b, await widthAt(factor)];
    if (Math.abs(b.width - target) <= 2) break;
  }
  const best = [a, b].reduce((x, y) => (Math.abs(y.width - target) < Math.abs(x.width - target) ? y : x));
  return { spec: best.spec, svg: best.svg };
}

/** A paper figure's files' contents at one width: the PDF, the PNG and the specification. */
export async function paperFigure(spec: Record<string, unknown>, width: PaperWidth): Promise<{ readonly pdf: Buffer; readonly png: Buffer; readonly spec: Record<string, unknown> }> {
  const fitted = await fitPaperFigure(spec, width);
  const [pdf, png] = await Promise.all([svgToPdf(fitted.svg, width.inches * 72), svgToPng(fitted.svg, width.inches * PAPER_DPI, PAPER_DPI)]);
  return { pdf, png, spec: fitted.spec };
}
