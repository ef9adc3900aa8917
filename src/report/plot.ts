import type { SummaryRow } from "../run/summary-types.js";
import { capitalised } from "../bounds/bound-choice.js";
import { SEPARATOR_BOUNDS, type SeparatorBoundName } from "../bounds/separator/separator-bounds.js";
import type { RunRow } from "../run/run-types.js";
import type { Factor } from "./sweep-factors.js";
import { CATEGORY_COLOURS } from "./plot-palette.js";

// The plots' names are result files: the vocabulary floor lists them, for the runner that clears a folder.
import { PLOT_NAMES, type PlotName } from "../vocabulary/result-files.js";

export { PLOT_FILES, PLOT_NAMES, type PlotName } from "../vocabulary/result-files.js";

/**
 * A Vega-Lite specification (plain JSON, its data inline), with the title and caption the page shows.
 * `usermeta.factors` says where each factor of the sweep that varies over the plot's points went: its
 * channels are in the encoding; `pooled` lists those pooled in each mark, which the caption names.
 */
export interface Plot {
  /** One of PLOT_NAMES, or a generator's own plot (GeneratorEntry.familyPlot). */
  readonly name: PlotName | (string & {});
  readonly title: string;
  readonly caption: string;
  readonly spec: Record<string, unknown>;
}

/** What the tests read back from a plot's specification: the factors it shows in its labels or pools. */
export interface PlotFactors {
  readonly varying: readonly Factor[];
  /** Factors the others fix on the plot's points (see sweepFactors): named in the caption. */
  readonly implied: readonly Factor[];
  /** Factors in a label on an axis (the per-point plots name each point by its factors). */
  readonly inLabel: readonly Factor[];
  readonly pooled: readonly Factor[];
  /** Factors left to summary.csv, whose row of the point (named by its number) gives them. */
  readonly inTable?: readonly Factor[];
}

export const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";

/** The most marks a scatter draws: about 170 bytes of SVG each, so that no SVG passes ~1 MB. */
export const MAX_MARKS = 3000;

// The palette is its own module (plot-palette.ts): the factors' capacities (sweep-factors.ts) count its colours.
export { CATEGORY_CAPACITY, OKABE_ITO } from "./plot-palette.js";


/** A specification with its schema, the factors' record and the look every plot shares. */
export function plotSpec(body: Record<string, unknown>, factors: PlotFactors): Record<string, unknown> {
  return {
    $schema: SCHEMA,
    usermeta: { factors },
    ...withDecadeTicks(body),
    config: {
      font: "system-ui, sans-serif",
      axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#e4e4e4", tickCount: 6 },
      legend: { labelFontSize: 11, titleFontSize: 12 },
      range: { category: CATEGORY_COLOURS },
    },
  };
}

/**
 * The specification with a log axis's ticks, and so its gridlines, at the powers of ten its data cover
 * (1, 10, 100, …) and nowhere else: left to itself, Vega draws a gridline at every 2, 3, … 9 × 10^k of
 * a log axis spanning a few decades, a dense mesh that hides the marks. Per channel (x, y) over the
 * whole specification, so that the layers and panels sharing an axis get the same ticks.
 */
function withDecadeTicks(body: Record<string, unknown>): Record<string, unknown> {
  const rows: Record<string, unknown>[] = [];
  const logFields: Record<"x" | "y", Set<string>> = { x: new Set(), y: new Set() };
  const encodings: Record<string, Record<string, unknown>>[] = [];
  const visit = (node: unknown): void => {
    if (Array.isArray(node)) return node.forEach(visit);
    if (node === null || typeof node !== "object") return;
    const object = node as Record<string, unknown>;
    const data = object.data as { values?: unknown } | undefined;
    if (Array.isArray(data?.values)) rows.push(...(data.values as Record<string, unknown>[]));
    const encoding = object.encoding as Record<string, Record<string, unknown>> | undefined;
    if (encoding !== undefined && typeof encoding === "object") {
      encodings.push(encoding);
      for (const channel of ["x", "y"] as const) {
        const scale = encoding[channel]?.scale as { type?: string } | undefined;
        if (scale?.type !== "log") continue;
        for (const field of [encoding[channel]?.field, encoding[`${channel}2`]?.field]) if (typeof field === "string") logFields[channel].add(field);
      }
    }
    for (const [key, value] of Object.entries(object)) if (key !== "data" && key !== "encoding") visit(value);
  };
  visit(body);
  for (const channel of ["x", "y"] as const) {
    if (logFields[channel].size === 0) continue;
    const values = rows.flatMap((row) => [...logFields[channel]].map((field) => row[field])).filter((value): value is number => typeof value === "number" && value > 0 && Number.isFinite(value));
    if (values.length === 0) continue;
    const [low, high] = [Math.min(...values), Math.max(...values)];
    const ticks = logTicks(low, high);
    for (const encoding of encodings) {
      const spec = encoding[channel];
      const scale = spec?.scale as { type?: string; domain?: unknown } | undefined;
      if (scale?.type !== "log") continue;
      // The axis spans the data (a little padded), not the decades around them: ratios in 0.01–0.3 on 0.01–0.3,
      // not 0.001–1. A domain the plot set itself stays.
      const fitted = scale.domain === undefined ? { ...scale, domain: [low / LOG_PAD, high * LOG_PAD], nice: false } : scale;
      encoding[channel] = { ...spec, scale: fitted, axis: { values: ticks, ...(spec!.axis as Record<string, unknown> | undefined) } };
    }
  }
  return body;
}

/** A log axis's domain reaches this factor past the data on each side (~a tenth of a decade). */
const LOG_PAD = 1.25;

/**
 * A log axis's ticks over [low, high] (padded by LOG_PAD): the powers of ten inside, or where fewer than two
 * fall inside, 1, 2 and 5 times them, so that an axis within a decade still reads.
 */
export function logTicks(low: number, high: number): number[] {
  const [from, to] = [low / LOG_PAD, high * LOG_PAD];
  const inside = decades(from, to).filter((tick) => tick >= from * (1 - 1e-12) && tick <= to * (1 + 1e-12));
  if (inside.length >= 2) return inside;
  const steps = decades(from, to).flatMap((decade) => [decade, 2 * decade, 5 * decade].map((tick) => Number(tick.toPrecision(12))));
  return [...new Set(steps)].filter((tick) => tick >= from * (1 - 1e-12) && tick <= to * (1 + 1e-12)).sort((a, b) => a - b);
}

/** The powers of ten from the one at or below `low` to the one at or above `high`. */
export function decades(low: number, high: number): number[] {
  const from = Math.floor(Math.log10(low) + 1e-9);
  const to = Math.ceil(Math.log10(high) - 1e-9);
  return Array.from({ length: Math.max(1, to - from + 1) }, (_, k) => Number(`1e${from + k}`));
}

/** Whether `values` span at least a decade, all above 0: then a log axis, else a linear one. */
export function spansDecades(values: readonly number[]): boolean {
  const finite = values.filter((value) => Number.isFinite(value));
  if (finite.length === 0 || finite.some((value) => value <= 0)) return false;
  return Math.max(...finite) / Math.min(...finite) >= 10;
}

/** A quantitative scale over `values`: log where they span decades above 0, symlog where 0 is among them. */
export function scaleFor(values: readonly number[]): Record<string, unknown> {
  if (spansDecades(values)) return { type: "log" };
  const positive = values.filter((value) => value > 0);
  if (values.some((value) => value === 0) && positive.length > 0 && Math.max(...positive) / Math.min(...positive) >= 10) return { type: "symlog" };
  return { type: "linear", zero: false };
}

/**
 * The part of y = x inside the plot's box: its two ends, or none when the line misses the box (so the
 * line never stretches an axis). The box is the data's [min x, max x] × [min y, max y], or with `log`
 * (both axes logarithmic) that box widened to the powers of ten a log axis shows around it, so that the
 * line crosses the whole plot rather than the sliver where the data's ranges overlap.
 */
export function diagonalWithin(xs: readonly number[], ys: readonly number[], { log = false }: { readonly log?: boolean } = {}): { x: number; y: number }[] {
  if (xs.length === 0 || ys.length === 0) return [];
  const range = (values: readonly number[]) => {
    const [low, high] = [Math.min(...values), Math.max(...values)];
    if (!log || !(low > 0)) return [low, high] as const;
    const ticks = decades(low, high);
    return [ticks[0]!, ticks[ticks.length - 1]!] as const;
  };
  const [xLow, xHigh] = range(xs);
  const [yLow, yHigh] = range(ys);
  const low = Math.max(xLow, yLow);
  const high = Math.min(xHigh, yHigh);
  return low <= high ? [{ x: low, y: low }, { x: high, y: high }] : [];
}

/** Every k-th of `items`, the same ones every time, so that at most `most` are kept; k is returned too. */
export function thinned<T>(items: readonly T[], most: number): { kept: T[]; every: number } {
  const every = Math.max(1, Math.ceil(items.length / most));
  return { kept: every === 1 ? [...items] : items.filter((_, index) => index % every === 0), every };
}

/**
 * The caption's words on marks that hide others: places (equal `position` values) where marks of different
 * `channels` values coincide, so that only the top one shows; nothing when there are none.
 */
export function coincidentMarks(data: readonly Record<string, unknown>[], position: readonly string[], channels: readonly string[]): string {
  if (channels.length === 0) return "";
  const places = new Map<string, Set<string>>();
  for (const row of data) {
    const place = JSON.stringify(position.map((field) => row[field]));
    const look = JSON.stringify(channels.map((field) => row[field]));
    (places.get(place) ?? places.set(place, new Set()).get(place)!).add(look);
  }
  const shared = [...places.values()].filter((looks) => looks.size > 1).length;
  return shared === 0 ? "" : `At ${counted(shared, "place")} marks of different colour or shape coincide (equal values), so the top one hides the others.`;
}

/** 1st, 2nd, 3rd, 4th, …, 11th, 12th, 13th, 21st, … */
export function ordinal(k: number): string {
  const teens = k % 100 >= 11 && k % 100 <= 13;
  const suffix = teens ? "th" : (["th", "st", "nd", "rd"][k % 10] ?? "th");
  return `${k}${suffix}`;
}

/** A count with its noun, plural when it is not 1. */
export function counted(count: number, noun: string): string {
  return `${count} ${noun}${count === 1 ? "" : "s"}`;
}

/**
 * The caption's words on the grid points a plot of converged-run statistics leaves out (those with no
 * converged run: nothing to draw), so that no point vanishes without a word; "" when none is left out.
 */
export function pointsNotDrawn(all: readonly { point: number }[], drawn: readonly { point: number }[]): string {
  const shown = new Set(drawn.map((row) => row.point));
  const left = all.filter((row) => !shown.has(row.point)).map((row) => row.point);
  if (left.length === 0) return "";
  const named = left.length <= 8 ? left.join(", ") : `${left.slice(0, 8).join(", ")}, …`;
  return `Not drawn: ${counted(left.length, "grid point")} with no converged run (${left.length === 1 ? "point" : "points"} ${named}).`;
}

/** What every plot is drawn from. */
export interface PlotInput {
  /** Every grid point's summary row. */
  readonly summary: readonly SummaryRow[];
  /** The runs the per-run plots draw from: every run, or every k-th of a large sweep (`runsEvery`). */
  readonly runs: readonly RunRow[];
  readonly runsEvery: number;
  readonly totalRuns: number;
  readonly maxEpochs: number;
  /** The separator whose bounds the plots use: the max-margin one where it was computed, else the planted. */
  readonly separator: "optimal" | "planted";
}

/** The separator bounds (the registry, bounds/separator/separator-bounds.ts), in column order, with the names the plots give them. */
export const BOUND_TITLES = Object.fromEntries(SEPARATOR_BOUNDS.map((bound) => [bound.name, bound.title])) as Readonly<Record<SeparatorBoundName, string>>;
export type PlottedBound = SeparatorBoundName;
export const PLOTTED_BOUNDS: readonly PlottedBound[] = SEPARATOR_BOUNDS.map((bound) => bound.name);

/** The column of a bound of the input's separator: `optimalSnappBound`, `plantedHuBound`, … */
export function boundColumn(separator: PlotInput["separator"], bound: PlottedBound): `${typeof separator}${Capitalize<PlottedBound>}Bound` {
  return `${separator}${capitalised(bound)}Bound`;
}

/** How a caption names the separator. */
export function separatorWords(separator: PlotInput["separator"]): string {
  return separator === "optimal" ? "the max-margin separator" : "the planted separator";
}

/** The caption's words on how many runs a per-run plot shows, when it shows every k-th (see thinned). */
export function runsShown(input: PlotInput, shown: number, every: number): string {
  const step = input.runsEvery * every;
  if (step === 1) return "";
  return `Thinned: every ${ordinal(step)} run of the sweep is drawn (${shown} of ${input.totalRuns}), so that the figure stays small.`;
}
