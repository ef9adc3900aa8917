import type { SummaryRow } from "../aggregate/summary-types.js";
import type { RunRow } from "../run/run-types.js";
import type { Factor } from "./sweep-factors.js";

/** Every plot a report may draw, by name: plots/<name>.svg and plots/<name>.vl.json. */
export const PLOT_NAMES = [
  "updates-vs-bounds",
  "ratio-vs-margin",
  "ratio-vs-dimension",
  "eta-and-init",
  "updates-per-point",
  "converged-share",
  "expected-updates",
  "three-point-ratio",
  "freund-schapire-vs-noise",
] as const;
export type PlotName = (typeof PLOT_NAMES)[number];

/** Every file a report may write under plots/ (--overwrite removes these, and only these, from there). */
export const PLOT_FILES: readonly string[] = PLOT_NAMES.flatMap((name) => [`${name}.svg`, `${name}.vl.json`]);

/**
 * A Vega-Lite specification (plain JSON, its data inline), with the title and caption the page shows.
 * `usermeta.factors` says where each factor of the sweep that varies over the plot's points went: its
 * channels are in the encoding; `pooled` lists those pooled in each mark, which the caption names.
 */
export interface Plot {
  readonly name: PlotName;
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

/** A specification with its schema, the factors' record and the look every plot shares. */
export function plotSpec(body: Record<string, unknown>, factors: PlotFactors): Record<string, unknown> {
  return { $schema: SCHEMA, usermeta: { factors }, ...body, config: { font: "system-ui, sans-serif", axis: { labelFontSize: 11, titleFontSize: 12, gridColor: "#e4e4e4", tickCount: 6 }, legend: { labelFontSize: 11, titleFontSize: 12 } } };
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
 * The part of y = x inside the data's box [min x, max x] × [min y, max y]: its two ends, or none when
 * the line misses the box (so the line never stretches an axis beyond the data).
 */
export function diagonalWithin(xs: readonly number[], ys: readonly number[]): { x: number; y: number }[] {
  if (xs.length === 0 || ys.length === 0) return [];
  const low = Math.max(Math.min(...xs), Math.min(...ys));
  const high = Math.min(Math.max(...xs), Math.max(...ys));
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

/** The four bounds, in the order the tables give them, with the names the plots give them (docs/theory.md). */
export const BOUND_TITLES = { novikoff: "Novikoff (R/γ)²", snapp: "Snapp k_max", hu: "Hu D²", optimised: "N(v)" } as const;
export type PlottedBound = keyof typeof BOUND_TITLES;
export const PLOTTED_BOUNDS = Object.keys(BOUND_TITLES) as PlottedBound[];

/** The column of a bound of the input's separator: `optimalSnappBound`, `plantedHuBound`, … */
export function boundColumn(separator: PlotInput["separator"], bound: PlottedBound): `${typeof separator}${Capitalize<PlottedBound>}Bound` {
  return `${separator}${bound.charAt(0).toUpperCase()}${bound.slice(1)}Bound` as `${typeof separator}${Capitalize<PlottedBound>}Bound`;
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
