import { availableParallelism } from "node:os";
import type { Calibration } from "../runner/calibrate-sweep.js";
import { findManifest } from "../runner/manifest.js";
import type { PlanDescription } from "../sweep/describe-plan.js";
import { DEFAULT_RUN_TABLES, TABLE_BYTES, type RunTableName } from "../vocabulary/result-files.js";

/** `run --dry-run`'s report, for people: what the sweep is, what it would cost, where it would go. */
export function formatPlan(
  plan: PlanDescription,
  path: string,
  outDir: string,
  timing: { calibration: Calibration | null; threads: number } | null = null,
  tables: readonly RunTableName[] = DEFAULT_RUN_TABLES,
): string {
  const lines = [
    `${plan.name} (${path === "-" ? "standard input" : path}): ${count(plan.points, "grid point")} × ${count(plan.repeats, "repeat")} = ${count(plan.runs, "run")}`,
  ];
  for (const grid of plan.grids) {
    const swept = Object.entries(grid.swept).map(([key, values]) => `${key} ${values.map((value) => String(value)).join(", ")}`);
    lines.push(`  grid ${grid.grid}: ${count(grid.points, "point")}${swept.length > 0 ? `, sweeping ${swept.join("; ")}` : ""}`);
  }
  if (plan.identicalRepeatPoints > 0) lines.push(`  ${identicalRepeatsNote(plan.identicalRepeatPoints, plan.repeats)}`);
  for (const entry of plan.skipped) lines.push(`  skipped ${count(entry.points, "point")} of grid ${entry.grid}: ${entry.reason}`);
  if (plan.shard !== null) lines.push(`shard ${plan.shard.index}/${plan.shard.count}: ${count(plan.shardRuns, "run")}`);
  lines.push(
    `estimated work: ${plan.multiplyAdds.toPrecision(3)} multiply-adds (generation, and the epochs the planted (R̂/γ̂)² bound allows, or a guess of 100 on data files and plug-in data); ` +
      `at most ${plan.maxMultiplyAdds.toPrecision(3)} (every run to maxEpochs ${plan.maxEpochs.toLocaleString("en")}, and again for its pocket error; the max-margin QP not counted)`,
  );
  if (timing !== null) lines.push(timeLine(timing.calibration, timing.threads));
  lines.push(diskLine(plan, tables));
  lines.push(...boundLines(plan));
  lines.push(`would write to ${outDir}/ (${folderState(outDir)})`);
  lines.push("dry run: nothing was run or written");
  return `${lines.join("\n")}\n`;
}

/** The time the calibration (calibrateSweep) predicts: CPU in all, and the wall time the threads could bring it to. */
function timeLine(calibration: Calibration | null, threads: number): string {
  if (calibration === null) return "estimated time: not timed (every grid point's runs are too costly to time in a dry run: see the work above)";
  const cores = Math.min(threads, availableParallelism());
  const timed = `timed by the CPU it took: the first runs of ${count(calibration.timedRuns, "grid point")}, in memory in ${seconds(calibration.seconds)}, its max-margin QP, bounds and table lines included`;
  const error = calibration.modelError;
  // How far the cost model that scales the untimed points was off on the timed ones (each from the one before).
  const model = error === null ? "" : `; the cost model predicted ${count(error.points, "timed point")} from the one before within ×${factor(error.low)}–×${factor(error.high)} of its CPU`;
  return `estimated time: the runs about ${seconds(calibration.cpuSeconds)} of CPU, so about ${seconds(calibration.cpuSeconds / cores)} on ${count(cores, "thread")} at best, plus a second or two to start (${timed}${model}; an estimate, not a bound)`;
}

/** A ratio to two significant digits ("0.62", "3.1", "14"). */
function factor(value: number): string {
  return value >= 10 ? value.toFixed(0) : value.toPrecision(2);
}

export function seconds(value: number): string {
  if (value < 1) return `${Math.max(1, Math.round(value * 1000))} ms`;
  if (value < 10) return `${value.toFixed(1)} s`;
  if (value < 120) return `${Math.round(value)} s`;
  if (value < 7200) return `${Math.round(value / 60)} min`;
  return `${(value / 3600).toFixed(1)} h`;
}

/**
 * The tables' size on disk, roughly (TABLE_BYTES), file by file as the run will keep them (`tables`: the views
 * beside runs.parquet), and the journal the sweep keeps while it runs; a shard writes no summaries.
 */
function diskLine(plan: PlanDescription, tables: readonly RunTableName[]): string {
  const runs = plan.shard === null ? plan.runs : plan.shardRuns;
  const files: [string, number][] = [];
  if (tables.includes("jsonl")) files.push(["runs.jsonl", runs * TABLE_BYTES.jsonlRun]);
  if (tables.includes("csv")) files.push(["runs.csv", runs * TABLE_BYTES.csvRun]);
  files.push(["runs.parquet", runs * TABLE_BYTES.parquetRun]);
  if (plan.shard === null) files.push(["summary.json and summary.csv", plan.points * TABLE_BYTES.summaryPoint]);
  const total = files.reduce((sum, [, bytes]) => sum + bytes, 0);
  const each = files.map(([file, bytes]) => `${file} ~${bytesText(bytes)}`).join(", ");
  const journal = `; runs.journal, ~${bytesText(runs * TABLE_BYTES.journalRun)}, is the record while the sweep runs, removed once runs.parquet is written`;
  const views = tables.length > 1 ? `; --tables parquet keeps runs.parquet alone, ~${TABLE_BYTES.parquetRun} bytes a run` : "";
  return `estimated disk: about ${bytesText(total)} of tables (${each}${journal}${views})`;
}

/** A size in bytes as the dry runs state it: KB, MB, GB or TB, two figures. */
export function bytesText(bytes: number): string {
  if (bytes >= 1e12) return `${(bytes / 1e12).toPrecision(2)} TB`;
  if (bytes >= 1e9) return `${(bytes / 1e9).toPrecision(2)} GB`;
  return bytes >= 1e6 ? `${(bytes / 1e6).toPrecision(2)} MB` : `${Math.ceil(bytes / 1e3)} KB`;
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
        : `runs not known to be separable: ${count(beyondSeparableRuns, "run")} of ${runs.toLocaleString("en")} with noise or overlap${csvRuns > 0 ? `, and those of the ${count(csvRuns, "run")} on data files or plug-in generators for which no separating vector is found` : ""}`;
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

/** The note on points whose repeats are one run repeated (see repeatsIdentical). */
export function identicalRepeatsNote(points: number, repeats: number): string {
  return `note: ${count(points, "grid point")} repeat${points === 1 ? "s" : ""} one run ${repeats} times (data no seed draws, ŵ(0) = 0, cyclic order: nothing random), so ${points === 1 ? "its" : "their"} statistics are one run's; a random init or order gives independent repeats`;
}
