import type { SummaryRow } from "../aggregate/summary-types.js";
import type { RunRow } from "../run/run-types.js";

/** A Vega-Lite specification (plain JSON), with the title and caption the page shows beside it. */
export interface Plot {
  readonly file: (typeof PLOT_FILES)[number];
  readonly title: string;
  readonly caption: string;
  readonly spec: Record<string, unknown>;
}

/** Every file a report may write under plots/ (--overwrite removes these, and only these, from there). */
export const PLOT_FILES = ["updates-vs-bounds.svg", "ratio-vs-margin.svg", "ratio-vs-dimension.svg", "eta-and-init.svg", "updates-per-point.svg"] as const;

const SCHEMA = "https://vega.github.io/schema/vega-lite/v6.json";
const BOUNDS = ["novikoff", "snapp", "hu", "optimised"] as const;

/** The separator whose bounds the plots use: the max-margin one when it was computed, else the planted. */
function separatorOf(rows: readonly { optimalBestBound?: unknown }[]): "optimal" | "planted" {
  return rows.some((row) => row.optimalBestBound !== null && row.optimalBestBound !== undefined) ? "optimal" : "planted";
}

/**
 * The plots of a report, each a pure function of the rows (those without data are left out):
 * observed updates against every bound (log-log, with y = x), the tightness against margin and
 * dimension, the effect of η and ŵ(0) on the bounds, and the distribution of updates per grid point.
 */
export function reportPlots(summary: readonly SummaryRow[], runs: readonly RunRow[]): Plot[] {
  const plots: Plot[] = [];
  const separator = separatorOf(runs);
  const prefix = separator === "optimal" ? "max-margin" : "planted";
  const capitalised = (bound: string) => `${separator}${bound.charAt(0).toUpperCase()}${bound.slice(1)}Bound`;

  const scatter: { bound: string; value: number; updates: number; point: number }[] = [];
  for (const row of runs) {
    if (!row.converged || row.updates === null || row.updates <= 0) continue;
    for (const bound of BOUNDS) {
      const value = (row as unknown as Record<string, number | null | undefined>)[capitalised(bound)];
      if (typeof value === "number" && value > 0) scatter.push({ bound, value, updates: row.updates, point: row.point });
    }
  }
  if (scatter.length > 0) {
    const values = scatter.flatMap((d) => [d.value, d.updates]);
    const line = [{ x: Math.min(...values), y: Math.min(...values) }, { x: Math.max(...values), y: Math.max(...values) }];
    plots.push({
      file: "updates-vs-bounds.svg",
      title: "Observed updates against each bound",
      caption: `Every converged run with at least one update, against each bound of the ${prefix} separator (log-log). Below the line y = x the bound holds; the closer to it, the tighter.`,
      spec: {
        $schema: SCHEMA,
        width: 520,
        height: 420,
        layer: [
          {
            data: { values: scatter },
            mark: { type: "point", filled: true, opacity: 0.5, size: 20 },
            encoding: {
              x: { field: "value", type: "quantitative", scale: { type: "log" }, title: "bound" },
              y: { field: "updates", type: "quantitative", scale: { type: "log" }, title: "observed updates" },
              color: { field: "bound", type: "nominal", sort: [...BOUNDS] },
            },
          },
          { data: { values: line }, mark: { type: "line", color: "#555", strokeDash: [4, 4] }, encoding: { x: { field: "x", type: "quantitative" }, y: { field: "y", type: "quantitative" } } },
        ],
      },
    });
  }

  const planted = summary.filter((row) => row.generator === "planted" && row.bestRatio.median !== null);
  const tightness = planted.map((row) => ({ margin: row.margin, d: row.d, eta: row.eta, init: row.init, ratio: row.bestRatio.median, point: row.point }));
  if (new Set(tightness.map((row) => row.margin)).size > 1) {
    plots.push({
      file: "ratio-vs-margin.svg",
      title: "Tightness against the margin",
      caption: "Median observed/best bound per grid point against the planted margin γ, one colour per dimension.",
      spec: lineSpec(tightness, "margin", "planted margin γ", "d"),
    });
  }
  if (new Set(tightness.map((row) => row.d)).size > 1) {
    plots.push({
      file: "ratio-vs-dimension.svg",
      title: "Tightness against the dimension",
      caption: "Median observed/best bound per grid point against the input dimension d, one colour per margin.",
      spec: lineSpec(tightness, "d", "dimension d", "margin"),
    });
  }

  const etaInit = summary.flatMap((row) =>
    BOUNDS.flatMap((bound) => {
      const median = (row as unknown as Record<string, { median: number | null }>)[capitalised(bound)]?.median ?? null;
      return median === null || !(median > 0) ? [] : [{ eta: row.eta, init: row.init, bound, median }];
    }),
  );
  if (new Set(etaInit.map((row) => row.eta)).size > 1 || new Set(etaInit.map((row) => row.init)).size > 1) {
    plots.push({
      file: "eta-and-init.svg",
      title: "The effect of η and ŵ(0) on the bounds",
      caption: `Median of each ${prefix} bound against η, one panel per initialisation: from ŵ(0) = 0 nothing depends on η; from a random ŵ(0) the bounds depend on ŵ(0)/η, and Novikoff's does not apply.`,
      spec: {
        $schema: SCHEMA,
        data: { values: etaInit },
        facet: { column: { field: "init", type: "nominal", title: "ŵ(0)" } },
        spec: {
          width: 220,
          height: 220,
          mark: { type: "line", point: true },
          encoding: {
            x: { field: "eta", type: "quantitative", scale: { type: "log" }, title: "η" },
            y: { field: "median", type: "quantitative", aggregate: "median", scale: { type: "log" }, title: "median bound" },
            color: { field: "bound", type: "nominal", sort: [...BOUNDS] },
          },
        },
      },
    });
  }

  const distribution = runs.filter((row) => row.converged && row.updates !== null).map((row) => ({ point: row.point, updates: row.updates }));
  if (distribution.length > 0) {
    plots.push({
      file: "updates-per-point.svg",
      title: "Distribution of updates per grid point",
      caption: "Box plots of the observed updates of each grid point's converged runs (whiskers at 1.5 IQR).",
      spec: {
        $schema: SCHEMA,
        data: { values: distribution },
        width: { step: 14 },
        height: 260,
        mark: { type: "boxplot", extent: 1.5 },
        encoding: {
          x: { field: "point", type: "ordinal", title: "grid point" },
          y: { field: "updates", type: "quantitative", title: "updates" },
        },
      },
    });
  }
  return plots;
}

function lineSpec(values: readonly Record<string, unknown>[], x: string, title: string, colour: string): Record<string, unknown> {
  return {
    $schema: SCHEMA,
    data: { values },
    width: 420,
    height: 300,
    mark: { type: "line", point: true },
    encoding: {
      x: { field: x, type: "quantitative", scale: { type: "log" }, title },
      y: { field: "ratio", type: "quantitative", aggregate: "median", title: "median observed / best bound" },
      color: { field: colour, type: "nominal" },
    },
  };
}
