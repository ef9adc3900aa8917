import type { SummaryRow } from "../aggregate/summary-types.js";
import { REPORT_COLUMNS } from "./summary-columns.js";

/** report.md: the summary as a Markdown table (medians over converged runs; * from the max-margin separator). */
export function reportMarkdown(title: string, summary: readonly SummaryRow[]): string {
  const lines = [
    `# ${title}`,
    "",
    "Medians over each grid point's converged runs; bounds marked * come from the max-margin separator, `best` is the smallest bound over both separators.",
    "",
    `| ${REPORT_COLUMNS.map((column) => column.title).join(" | ")} |`,
    `| ${REPORT_COLUMNS.map(() => "---").join(" | ")} |`,
    ...summary.map((row) => `| ${REPORT_COLUMNS.map((column) => column.value(row)).join(" | ")} |`),
  ];
  return `${lines.join("\n")}\n`;
}
