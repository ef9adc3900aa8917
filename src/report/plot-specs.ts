import type { SummaryRow } from "../run/summary-types.js";
import type { RunRow } from "../run/run-types.js";
import { type Plot, type PlotInput } from "./plot.js";
import { etaAndInitPlot } from "./plot-eta-and-init.js";
import { convergedSharePlot, updatesPerPointPlot } from "./plot-per-point.js";
import { expectedUpdatesPlot, generatorPlots } from "./plot-structured-families.js";
import { freundSchapirePlot } from "./plot-freund-schapire.js";
import { proofFactorsPlot } from "./plot-proof-factors.js";
import { tightnessPlot } from "./plot-tightness.js";
import { updatesVsBoundsPlot } from "./plot-updates-vs-bounds.js";
import { worstOrderPlot, worstRatioPlot } from "./plot-worst-order.js";

export { PLOT_FILES, type Plot } from "./plot.js";

/** The separator whose bounds the plots (and the report's answer) use: the max-margin one when it was computed, else the planted. */
export function separatorOf(rows: readonly RunRow[]): "optimal" | "planted" {
  return rows.some((row) => row.optimalBestBound !== null && row.optimalBestBound !== undefined) ? "optimal" : "planted";
}

/**
 * The plots of a report, each a pure function of the rows; a plot with nothing to show is left out.
 * `runs` are those the per-run plots draw (every `runsEvery`-th of `totalRuns`).
 */
export function reportPlots(summary: readonly SummaryRow[], runs: readonly RunRow[], sweep: { readonly runsEvery: number; readonly totalRuns: number; readonly maxEpochs: number } = { runsEvery: 1, totalRuns: runs.length, maxEpochs: 0 }): Plot[] {
  const input: PlotInput = { summary, runs, ...sweep, separator: separatorOf(runs) };
  const plots = [
    updatesVsBoundsPlot(input),
    tightnessPlot(input, "margin"),
    tightnessPlot(input, "d"),
    etaAndInitPlot(input),
    expectedUpdatesPlot(input),
    ...generatorPlots(input),
    updatesPerPointPlot(input),
    convergedSharePlot(input),
    freundSchapirePlot(input),
    proofFactorsPlot(input),
    worstOrderPlot(input),
    worstRatioPlot(input),
  ];
  // The caption travels with the specification (Vega-Lite's description), so a .vl.json says what it shows.
  return plots.filter((plot): plot is Plot => plot !== null).map((plot) => ({ ...plot, spec: { $schema: plot.spec.$schema, description: plot.caption, ...plot.spec } }));
}
