import type { BoundFacts } from "../vocabulary/plugin-definitions.js";
import type { SummaryRow } from "../run/summary-types.js";
import { reportColumns } from "./summary-columns.js";

export interface RenderedPlot {
  /** plots/<name>.svg and plots/<name>.vl.json, the picture and its Vega-Lite specification. */
  readonly name: string;
  readonly title: string;
  readonly caption: string;
  readonly svg: string;
}

/** How many grid points the page's table shows; all are in report.md and summary.csv. */
export const HTML_TABLE_ROWS = 500;

/**
 * report.html: one self-contained page (inline SVG, inline CSS, no script, nothing fetched): the answer first
 * (report-answer.ts: how loose each bound is and why), then the plots and the summary table.
 */
export function reportHtml(
  title: string,
  description: string | null,
  facts: readonly string[],
  plots: readonly RenderedPlot[],
  summary: readonly SummaryRow[],
  pluginBounds: readonly BoundFacts[] = [],
  answer: readonly string[] = [],
): string {
  const rows = summary.slice(0, HTML_TABLE_ROWS);
  const more = summary.length > rows.length ? `<p>${summary.length - rows.length} more grid points in report.md and summary.csv.</p>` : "";
  const columns = reportColumns(summary, pluginBounds);
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<title>${escape(title)}</title>
<style>
body { font: 14px/1.45 system-ui, sans-serif; margin: 2rem auto; max-width: 1200px; padding: 0 1rem; color: #222; }
figure { margin: 2rem 0; } figcaption { color: #555; max-width: 60rem; } figure svg { max-width: 100%; height: auto; } .files { color: #888; font-size: 12px; }
table { border-collapse: collapse; font-size: 12px; } th, td { border: 1px solid #ccc; padding: 2px 6px; text-align: right; }
.answer li { font-size: 15px; margin: 0.3rem 0; }
@media print { body { margin: 0; max-width: none; } figure { break-inside: avoid; } h2 { break-after: avoid; } }
th { background: #f3f3f3; } td:nth-child(-n+${columns.findIndex((column) => column.title === "order") + 1}) { text-align: left; }
</style>
</head>
<body>
<h1>${escape(title)}</h1>
${description ? `<p>${escape(description)}</p>` : ""}
<ul>${facts.map((fact) => `<li>${escape(fact)}</li>`).join("")}</ul>
${answer.length === 0 ? "" : `<h2 id="answer">The answer</h2>\n<ul class="answer">${answer.map((line) => `<li>${escape(line)}</li>`).join("")}</ul>`}
${plots.map((plot) => `<figure id="${escape(plot.name)}"><h2>${escape(plot.title)}</h2>\n${plot.svg}\n<figcaption>${escape(plot.caption)} <span class="files">plots/${escape(plot.name)}.svg, its Vega-Lite specification plots/${escape(plot.name)}.vl.json</span></figcaption></figure>`).join("\n")}
<h2>Summary</h2>
<p>Updates and ratios: medians over each grid point's converged runs; bounds: medians over every run, converged or not; bounds marked * come from the max-margin separator, best is the smallest bound over every separator; the mistakes, pocket errors and Freund–Schapire (FS) columns, where shown, take every run, converged or not.</p>
<table>
<thead><tr>${columns.map((column) => `<th>${escape(column.title)}</th>`).join("")}</tr></thead>
<tbody>
${rows.map((row) => `<tr>${columns.map((column) => `<td>${escape(column.value(row))}</td>`).join("")}</tr>`).join("\n")}
</tbody>
</table>
${more}
</body>
</html>
`;
}

function escape(text: string): string {
  return text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;");
}
