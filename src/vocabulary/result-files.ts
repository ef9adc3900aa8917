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

/**
 * The paper figures (report --figures paper): each plot at a journal's one-column and two-column width, as
 * plots/<name>.<width>.pdf (vector, fonts embedded), plots/<name>.<width>.300dpi.png and its specification
 * plots/<name>.<width>.vl.json.
 */
export const PAPER_WIDTHS = [
  { label: "3.5in", inches: 3.5 },
  { label: "7in", inches: 7 },
] as const;
export const PAPER_DPI = 300;

/** A paper figure's files at one width: the PDF, the PNG and the specification, in that order. */
export function paperFigureFiles(name: string, width: (typeof PAPER_WIDTHS)[number]): readonly [string, string, string] {
  return [`${name}.${width.label}.pdf`, `${name}.${width.label}.${PAPER_DPI}dpi.png`, `${name}.${width.label}.vl.json`];
}

/** Every file a report may write under plots/ for one plot: its SVG and specification, and its paper figures. */
export function plotFiles(name: string): string[] {
  return [`${name}.svg`, `${name}.vl.json`, ...PAPER_WIDTHS.flatMap((width) => paperFigureFiles(name, width))];
}

/** Every file a report may write under plots/ (--overwrite removes these, and only these, from there). */
export const PLOT_FILES: readonly string[] = PLOT_NAMES.flatMap(plotFiles);

/**
 * What a run takes in the sweep's journal (runs.journal, while it runs: rows as numbers, column by column,
 * deflated), roughly: 35 bytes a small run (n 100, d 10) in a 10⁶-run sweep's blocks of 256 runs; quick.json's
 * rows (every default bound, the max-margin separator's) 75 in blocks of 256, 130 in its blocks of 8.
 */
const JOURNAL_RUN_BYTES = 80;

/**
 * What the tables take on disk, roughly, in bytes: runs.jsonl and runs.csv about 1.7 and 0.6 KB a run, runs.parquet
 * about 170 bytes, summary.json and summary.csv about 5.2 and 2.5 KB a grid point (experiments/quick.json with the
 * default bounds: 408 and 138 KB for 240 runs, 251 and 121 KB for 48 points; fewer bounds computed, a little less).
 * What `--dry-run` and `slurm --dry-run` state.
 */
export const TABLE_BYTES = { jsonlRun: 1700, csvRun: 600, textRun: 2300, parquetRun: 170, journalRun: JOURNAL_RUN_BYTES, summaryPoint: 7700 } as const;

/**
 * The run tables a sweep can keep (the experiment's "tables", --tables): runs.parquet always, and the text
 * tables runs.csv and runs.jsonl as views of the same rows, formatted as the runs come and never read back
 * (docs/outputs.md, "The record and its views"). The default keeps all three.
 */
export const RUN_TABLE_NAMES = ["csv", "jsonl", "parquet"] as const;
export type RunTableName = (typeof RUN_TABLE_NAMES)[number];
export const DEFAULT_RUN_TABLES: readonly RunTableName[] = RUN_TABLE_NAMES;

/**
 * The tables a list names (`csv,jsonl,parquet`, or a list of words), in RUN_TABLE_NAMES' order, parquet
 * always among them; null and why where a word is not a table's name or the list is empty.
 */
export function runTablesOf(list: string | readonly string[]): { readonly tables: RunTableName[] } | { readonly problem: string } {
  const words = (typeof list === "string" ? list.split(",") : list).map((word) => word.trim()).filter((word) => word !== "");
  const unknown = words.find((word) => !(RUN_TABLE_NAMES as readonly string[]).includes(word));
  if (unknown !== undefined) return { problem: `${JSON.stringify(unknown)} is not a run table: list any of ${RUN_TABLE_NAMES.join(", ")}` };
  if (words.length === 0) return { problem: `names no table: list any of ${RUN_TABLE_NAMES.join(", ")} (runs.parquet is always written)` };
  return { tables: RUN_TABLE_NAMES.filter((name) => name === "parquet" || words.includes(name)) };
}
