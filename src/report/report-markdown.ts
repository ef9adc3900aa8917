import type { SummaryRow } from "../aggregate/summary-types.js";
import { reportColumns } from "./summary-columns.js";

/** report.md: the summary as a Markdown table (updates and ratios over converged runs, bounds over every run; * from the max-margin separator). */
export function reportMarkdown(title: string, summary: readonly SummaryRow[]): string {
  const columns = reportColumns(summary);
  const lines = [
    `# ${title}`,
    "",
    "Updates and ratios: medians over each grid point's converged runs; bounds: medians over every run, converged or not; bounds marked * come from the max-margin separator, `best` is the smallest bound over every separator; columns marked \"every run\" and the Freund–Schapire (FS) bounds take every run, converged or not.",
    "",
    `| ${columns.map((column) => column.title).join(" | ")} |`,
    `| ${columns.map(() => "---").join(" | ")} |`,
    ...summary.map((row) => `| ${columns.map((column) => column.value(row)).join(" | ")} |`),
  ];
  return `${lines.join("\n")}\n`;
}
