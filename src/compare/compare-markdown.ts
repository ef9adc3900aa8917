import type { CompareReport, PointLabel, RuleOutcome } from "./compare-results.js";

/**
 * The comparison as Markdown, for CI logs and pull-request comments: the verdict, both sides, the rules,
 * then the points that did not pass (all of them with `all`).
 */
export function compareMarkdown(report: CompareReport, all = false): string {
  const { baseline: b, current: c, counts } = report;
  const tool = (side: typeof b) => `${side.version}${side.commit ? ` @ ${side.commit.slice(0, 12)}` : ""}`;
  const lines = [
    `### perceptron-lab compare: ${report.result === "pass" ? "PASS" : "REGRESSION"}`,
    "",
    "| | baseline | current |",
    "| --- | --- | --- |",
    `| folder | ${b.folder} | ${c.folder} |`,
    `| experiment | ${b.name} (sha256 ${b.hash.slice(0, 12)}) | ${c.name} (sha256 ${c.hash.slice(0, 12)}) |`,
    `| perceptron-lab | ${tool(b)} | ${tool(c)} |`,
    "",
    `Rules: ${report.rules.map((rule) => `\`${rule}\``).join(", ")}, each two-sided; a change beyond its threshold fails only where a Mann–Whitney U test on the runs finds the samples different (p < ${report.alpha}), and is inconclusive otherwise.`,
    "",
    `${report.matchedPoints} grid points matched, ${report.rules.length} rule${report.rules.length > 1 ? "s" : ""} each: ${counts.pass} checks pass, ${counts.fail} fail, ${counts.inconclusive} inconclusive.`,
  ];
  if (report.experimentChanged) lines.push("", "**Note:** the two experiment files differ (their SHA-256 does not match).");
  if (report.toolChanged) lines.push("", "**Note:** the two folders were written by different versions or commits of perceptron-lab.");
  for (const [where, points] of [["baseline", report.onlyInBaseline], ["current", report.onlyInCurrent]] as const) {
    if (points.length > 0) lines.push("", `**Only in ${where}:** ${points.length} grid point${points.length > 1 ? "s" : ""}: ${points.slice(0, 10).map(describe).join("; ")}${points.length > 10 ? "; …" : ""}`);
  }
  const rows = report.outcomes.filter((outcome) => all || outcome.verdict !== "pass");
  if (rows.length > 0) {
    lines.push("", "| verdict | rule | grid point | baseline | current | change | p |", "| --- | --- | --- | ---: | ---: | ---: | ---: |");
    for (const outcome of rows) lines.push(row(outcome));
  }
  return `${lines.join("\n")}\n`;
}

function row(o: RuleOutcome): string {
  const change = o.change === null ? "-" : `${signed(o.change)}${o.relativeChange === null ? "" : ` (${signed(100 * o.relativeChange)}%)`}`;
  return `| ${o.verdict} | \`${o.rule}\` | ${describe(o.point)} | ${number(o.baseline)} | ${number(o.current)} | ${change} | ${o.p === null ? "-" : o.p.toPrecision(2)} |`;
}

function describe(p: PointLabel): string {
  const shape = p.margin !== null ? ` margin=${p.margin} offset=${p.offset}` : p.c !== null ? ` c=${p.c}` : "";
  return `${p.generator} n=${p.n} d=${p.d}${shape} bias=${p.bias} eta=${p.eta} init=${p.init} ${p.order}`;
}

function number(value: number | null): string {
  return value === null ? "-" : Number(value.toPrecision(6)).toString();
}

function signed(value: number): string {
  const text = Number(value.toPrecision(4)).toString();
  return value > 0 ? `+${text}` : text;
}
