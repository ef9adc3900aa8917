/** The report's files in a result folder (written by report/, cleared by the runner's --overwrite). */
export const REPORT_FILES = { html: "report.html", markdown: "report.md", plots: "plots" } as const;

/**
 * Every plot a report draws whatever the generators, by name: plots/<name>.svg and plots/<name>.vl.json. A
 * generator's own plot (GeneratorEntry.familyPlot) is named by its generator; generatorPlotFiles lists those.
 */
export const PLOT_NAMES = [
  "updates-vs-bounds",
  "ratio-vs-margin",
  "ratio-vs-dimension",
  "eta-and-init",
  "updates-per-point",
  "converged-share",
  "expected-updates",
  "freund-schapire-vs-noise",
  "proof-factors",
  "worst-order",
  "worst-ratio-vs-margin",
] as const;
export type PlotName = (typeof PLOT_NAMES)[number];

/** Every file a report may write under plots/ (--overwrite removes these, and only these, from there). */
export const PLOT_FILES: readonly string[] = PLOT_NAMES.flatMap((name) => [`${name}.svg`, `${name}.vl.json`]);
