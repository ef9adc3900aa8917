import { findManifest } from "../runner/manifest.js";
import type { PlanDescription } from "../sweep/describe-plan.js";

/** `run --dry-run`'s report, for people: what the sweep is, what it would cost, where it would go. */
export function formatPlan(plan: PlanDescription, path: string, outDir: string): string {
  const lines = [
    `${plan.name} (${path === "-" ? "standard input" : path}): ${count(plan.points, "grid point")} × ${count(plan.repeats, "repeat")} = ${count(plan.runs, "run")}`,
  ];
  for (const grid of plan.grids) {
    const swept = Object.entries(grid.swept).map(([key, values]) => `${key} ${values.map((value) => String(value)).join(", ")}`);
    lines.push(`  grid ${grid.grid}: ${count(grid.points, "point")}${swept.length > 0 ? `, sweeping ${swept.join("; ")}` : ""}`);
  }
  for (const entry of plan.skipped) lines.push(`  skipped ${count(entry.points, "point")} of grid ${entry.grid}: ${entry.reason}`);
  if (plan.shard !== null) lines.push(`shard ${plan.shard.index}/${plan.shard.count}: ${count(plan.shardRuns, "run")}`);
  lines.push(
    `estimated work: ${plan.multiplyAdds.toPrecision(3)} multiply-adds (generation, and the epochs the planted (R̂/γ̂)² bound allows: an upper estimate; the max-margin QP not counted)`,
  );
  lines.push(...boundLines(plan));
  lines.push(`would write to ${outDir}/ (${folderState(outDir)})`);
  lines.push("dry run: nothing was run or written");
  return `${lines.join("\n")}\n`;
}

/** Which bounds the runs compute, when, and at what cost; the names not computed, whose columns stay empty. */
function boundLines(plan: PlanDescription): string[] {
  const { declared, optimal, names, beyondSeparableRuns, csvRuns } = plan.bounds;
  const separators = optimal ? "planted and max-margin separators" : "planted separator (optimal is off: no max-margin columns)";
  const lines = [`bounds (${declared}), for the ${separators}:`];
  const runs = plan.shard === null ? plan.runs : plan.shardRuns;
  for (const { key, mode, cost } of names) {
    if (mode === "never") continue;
    const when =
      mode === "always"
        ? "every run"
        : `runs not known to be separable: ${count(beyondSeparableRuns, "run")} of ${runs.toLocaleString("en")} with noise or overlap${csvRuns > 0 ? `, and those of the ${count(csvRuns, "csv run")} for which no separating vector is found` : ""}`;
    lines.push(`  ${key}: ${when}; cost ${cost}`);
  }
  const skipped = names.filter(({ mode }) => mode === "never").map(({ key }) => key);
  if (skipped.length > 0) lines.push(`  not computed (their columns stay empty): ${skipped.join(", ")}`);
  return lines;
}

function count(value: number, noun: string): string {
  return `${value.toLocaleString("en")} ${noun}${value === 1 ? "" : "s"}`;
}

function folderState(outDir: string): string {
  try {
    const manifest = findManifest(outDir);
    if (manifest === null) return "no results there yet";
    return `it holds a ${manifest.status} sweep of ${manifest.experiment.name}: run needs --resume or --overwrite`;
  } catch (error) {
    return (error as Error).message;
  }
}
