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
  lines.push(`would write to ${outDir}/ (${folderState(outDir)})`);
  lines.push("dry run: nothing was run or written");
  return `${lines.join("\n")}\n`;
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
