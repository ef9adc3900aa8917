import type { SummaryRow } from "../run/summary-types.js";
import { reportColumns } from "./summary-columns.js";
import type { BoundFacts } from "../vocabulary/plugin-definitions.js";

/** report.md: the summary as a Markdown table (updates and ratios over converged runs, bounds over every run; * from the max-margin separator). */
export function reportMarkdown(title: string, summary: readonly SummaryRow[], pluginBounds: readonly BoundFacts[] = [], answer: readonly string[] = []): string {
  const columns = reportColumns(summary, pluginBounds);
  const lines = [
    `# ${markdownText(title)}`,
    "",
    // The answer first (report-answer.ts): how loose each bound is, and why.
    ...(answer.length === 0 ? [] : ["## The answer", "", ...answer.map((line) => `- ${markdownText(line)}`), "", "## Summary", ""]),
    "Updates and ratios: medians over each grid point's converged runs; bounds: medians over every run, converged or not; bounds marked * come from the max-margin separator, `best` is the smallest bound over every separator; columns marked \"every run\" and the Freund–Schapire (FS) bounds take every run, converged or not.",
    "",
    `| ${columns.map((column) => markdownText(column.title)).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...summary.map((row) => `| ${columns.map((column) => markdownText(String(column.value(row)))).join(" | ")} |`),
  ];
  return `${lines.join("\n")}\n`;
}

/**
 * Text as one Markdown table cell shows it literally: HTML's special characters as entities (a data file
 * named `<img src=x onerror=…>.csv` is text, not markup), `|`, backslashes and Markdown's emphasis and link
 * characters escaped, line breaks as spaces.
 */
export function markdownText(text: string): string {
  return text
    .replace(/&/g, "&amp;")
    .replace(/</g, "&lt;")
    .replace(/>/g, "&gt;")
    .replace(/[\\`*_[\]|]/g, (character) => `\\${character}`)
    .replace(/[\r\n]+/g, " ");
}
