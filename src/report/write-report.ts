import type { PluginInfo } from "../vocabulary/plugin-info.js";
import { BOUND_KEYS, boundModes, describeBounds, recordedBounds, type BoundMode, type BoundsDeclaration } from "../bounds/bound-choice.js";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { makeFolder } from "../files/checked-fs.js";
import { refuseLinkedSubfolder } from "../runner/linked-paths.js";
import { lockResultFolder } from "../runner/folder-lock.js";
import { readManifest, requireComplete, type Manifest } from "../runner/manifest.js";
import { recordsOf, summaryRows } from "../runner/read-result-folder.js";
import type { RunRow } from "../run/run-types.js";
import { ordinal } from "./plot.js";
import { reportPlots, separatorOf } from "./plot-specs.js";
import { answerLines } from "./report-answer.js";
import { reportHtml } from "./report-html.js";
import { reportMarkdown } from "./report-markdown.js";
import { renderSvg } from "./render-svg.js";

/** At most this many runs feed the per-run plots (every k-th run, so the same ones every time). */
export const PLOTTED_RUNS = 4000;

const REPORT_NEEDS = "report needs a complete result folder written by run, run --shard or merge";

import { PAPER_WIDTHS, paperFigureFiles, REPORT_FILES } from "../vocabulary/result-files.js";
import { paperFigure } from "./paper-figures.js";

export { REPORT_FILES } from "../vocabulary/result-files.js";

export interface ReportOptions {
  readonly onNote?: (text: string) => void;
  /**
   * "paper": each plot also as a journal's figure, at one- and two-column widths (PAPER_WIDTHS): a vector PDF
   * with its fonts embedded, a 300-dpi PNG and its specification (paper-figures.ts).
   */
  readonly figures?: "screen" | "paper";
}

/**
 * Writes report.html, report.md and plots/*.svg (and with `figures: "paper"` the paper figures) into a complete
 * result folder, under its lock (see lockResultFolder), each file replaced whole; returns the page's path.
 */
export async function writeReport(folder: string, options: ReportOptions = {}): Promise<string> {
  if (folder.trim() === "") throw new InputError("report's folder is empty: name a result folder (an unset variable in a script?)");
  const manifest = readManifest(folder, REPORT_NEEDS);
  requireComplete(folder, manifest);
  const lock = lockResultFolder(folder, "report");
  try {
    if (lock.note !== null) options.onNote?.(`${folder}: ${lock.note}`);
    return await writeReportFiles(folder, manifest, options.figures ?? "screen");
  } finally {
    lock.release();
  }
}

async function writeReportFiles(folder: string, manifest: Manifest, figures: "screen" | "paper"): Promise<string> {
  const notes: string[] = [];
  const summary = summaryRows(folder, manifest, REPORT_NEEDS, (text) => notes.push(text));
  const total: number = manifest.counts.runs;
  const every = Math.max(1, Math.ceil(total / PLOTTED_RUNS));
  const runs: RunRow[] = [];
  for (const row of recordsOf(folder)) if (row.run % every === 0) runs.push(row);

  const plots = reportPlots(summary, runs, { runsEvery: every, totalRuns: total, maxEpochs: manifest.resolved.maxEpochs });
  const rendered = [];
  refuseLinkedSubfolder(folder, REPORT_FILES.plots);
  makeFolder(join(folder, REPORT_FILES.plots));
  for (const plot of plots) {
    const svg = await renderSvg(plot.spec);
    // The specification beside its picture, data inline, so that a user can restyle it (vega-lite's editor, altair).
    writeFileAtomic(join(folder, REPORT_FILES.plots, `${plot.name}.vl.json`), `${JSON.stringify(plot.spec, null, 1)}\n`);
    writeFileAtomic(join(folder, REPORT_FILES.plots, `${plot.name}.svg`), svg);
    rendered.push({ name: plot.name, title: plot.title, caption: plot.caption, svg });
    if (figures === "paper") {
      for (const width of PAPER_WIDTHS) {
        const figure = await paperFigure(plot.spec, width);
        const [pdf, png, spec] = paperFigureFiles(plot.name, width).map((file) => join(folder, REPORT_FILES.plots, file)) as [string, string, string];
        writeFileAtomic(spec, `${JSON.stringify(figure.spec, null, 1)}\n`);
        writeFileAtomic(pdf, figure.pdf);
        writeFileAtomic(png, figure.png);
      }
    }
  }
  const c = manifest.counts;
  const tool = manifest.tool;
  const plugins = Object.entries(manifest.resolved.plugins ?? {});
  const pluginBounds = plugins.flatMap(([, info]) => info.bounds ?? []);
  const shard = manifest.shard;
  const title = `perceptron-lab: ${manifest.experiment.name}${shard === null ? "" : ` (shard ${shard.index}/${shard.count})`}`;
  const facts = [
    `${c.runs} runs in ${summary.length} grid points: ${c.converged} converged, ${c.notConverged} not converged, ${c.errors} errors, ${c.violatingRuns} violations.`,
    `Experiment ${manifest.experiment.path} (sha256 ${String(manifest.experiment.hash).slice(0, 12)}), seed ${manifest.resolved.seed}, ${manifest.resolved.repeats} repeats, max ${manifest.resolved.maxEpochs} epochs.`,
    boundsFact(recordedBounds(manifest.resolved), manifest.resolved.optimal),
    ...plugins.map(([name, info]) => pluginFact(name, info)),
    `perceptron-lab ${tool.version}${tool.git ? ` at ${tool.git.commit.slice(0, 12)}${tool.git.dirty ? " (dirty)" : ""}` : ""}, Node ${tool.node}, ${tool.platform}.`,
    ...(every > 1 ? [`The per-run plots show every ${ordinal(every)} run (${runs.length} of ${c.runs}).`] : []),
    ...notes,
    ...(shard === null ? [] : [`Shard ${shard.index} of ${shard.count}: every summary is over this shard's runs of its grid point (some of its repeats); merge the shards for the whole sweep.`]),
  ];
  const answer = answerLines(summary, runs, separatorOf(runs));
  writeFileAtomic(join(folder, REPORT_FILES.markdown), reportMarkdown(title, summary, pluginBounds, answer));
  const page = join(folder, REPORT_FILES.html);
  writeFileAtomic(page, reportHtml(title, manifest.resolved.description ?? null, facts, rendered, summary, pluginBounds, answer));
  return page;
}

/** What a plug-in file defined (docs/plugins.md): its bounds are the user's, checked by no one but their ratios. */
function pluginFact(name: string, info: PluginInfo): string {
  const defined = [...info.generators.map((generator) => `generator ${generator.name}`), ...(info.bounds ?? []).map((bound) => `bound ${bound.name} (${bound.title})`)];
  const caution = (info.bounds ?? []).length > 0 ? "; a plug-in bound is not in best nor counted as a violation: a largest ratio above 1 shows where it failed" : "";
  return `Plug-in ${name} (sha256 ${info.sha256.slice(0, 12)}): ${defined.join(", ")}${caution}.`;
}

/** Which bounds the runs computed, and which not (their columns empty, drawn by no plot). */
function boundsFact(declared: BoundsDeclaration, optimal: boolean): string {
  const modes = boundModes(declared);
  const named = (mode: BoundMode) => BOUND_KEYS.filter((key) => modes[key] === mode);
  const parts = [`Bounds computed (bounds: ${describeBounds(declared)}), for the planted separator${optimal ? " and the max-margin one" : " only (optimal off)"}: ${named("always").join(", ") || "none"} on every run`];
  if (named("unlessSeparable").length > 0) parts.push(`${named("unlessSeparable").join(", ")} on runs whose data are not known to be separable`);
  const never = named("never");
  return `${parts.join("; ")}.${never.length > 0 ? ` Not computed: ${never.join(", ")} (their columns are empty and no plot draws them).` : ""}`;
}
