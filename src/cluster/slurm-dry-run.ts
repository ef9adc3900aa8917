import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { SweepTimer } from "../runner/calibrate-sweep.js";
import { pointCostOf } from "../sweep/estimate-run-cost.js";
import { planSweep } from "../sweep/plan-sweep.js";
import type { SweepPoint } from "../sweep/run-batch.js";
import { BlockSplit } from "../sweep/shard.js";

/** Bytes a run takes in runs.jsonl and runs.csv, and in runs.parquet (the tables' sizes: format-plan.ts, docs/benchmarks.md). */
const TEXT_BYTES_A_RUN = 2300;
const PARQUET_BYTES_A_RUN = 170;
/** Bytes a grid point's summaries take (summary.json and summary.csv). */
const SUMMARY_BYTES_A_POINT = 7700;

export interface SlurmPlan {
  readonly shards: number;
  readonly runs: number;
  /** Runs in each shard, by shard index − 1. */
  readonly shardRuns: readonly number[];
  /** Each shard's estimated CPU seconds (the dry run's timing, split as the shards split the runs); null where not timed. */
  readonly shardCpuSeconds: readonly number[] | null;
  /** Bytes a shard's folder takes (its run tables), by shard index − 1; the merged folder's. */
  readonly shardBytes: readonly number[];
  readonly mergedBytes: number;
}

/**
 * What `slurm --dry-run` states: how the split deals the sweep's runs to the shards (the same BlockSplit every
 * task computes), each shard's CPU as run --dry-run times the runs (a few runs timed by their thread's CPU, the
 * others scaled by their estimated cost), and the disk of the shards and of the merge.
 */
export function planSlurmJob(loaded: LoadedExperiment, shards: number, parquet: "none" | "also" | "only"): SlurmPlan {
  const plan = planSweep(loaded.experiment);
  const split = new BlockSplit(plan, shards, pointCostOf(plan.settings.maxEpochs));
  const timer = new SweepTimer(plan.settings, plan.pointCount, { dataSets: loaded.dataSets });
  const costOf = pointCostOf(plan.settings.maxEpochs);
  const shardRuns = new Array<number>(shards).fill(0);
  const cpu = new Array<number>(shards).fill(0);
  const pendingCost = new Array<number>(shards).fill(0);
  // The blocks in sweep order, each a stretch of runs of one shard: the points' repeats dealt to them in turn.
  const points = plan.points()[Symbol.iterator]();
  let point: SweepPoint | undefined = points.next().value;
  let left = plan.repeats;
  for (const block of split.blockRuns()) {
    shardRuns[block.shard - 1]! += block.runs;
    for (let runs = block.runs; runs > 0 && point !== undefined; ) {
      const taken = Math.min(runs, left);
      const seconds = timer.add(point, taken);
      if (seconds === null) pendingCost[block.shard - 1]! += taken * costOf(point);
      else cpu[block.shard - 1]! += seconds;
      runs -= taken;
      left -= taken;
      if (left === 0) {
        point = points.next().value;
        left = plan.repeats;
      }
    }
  }
  const timed = timer.result() !== null;
  const shardCpuSeconds = timed ? cpu.map((seconds, k) => seconds + (timer.secondsOfCost(pendingCost[k]!) ?? 0)) : null;
  const textBytes = parquet === "only" ? 0 : TEXT_BYTES_A_RUN;
  const parquetBytes = parquet === "none" ? 0 : PARQUET_BYTES_A_RUN;
  return {
    shards,
    runs: plan.runCount,
    shardRuns,
    shardCpuSeconds,
    // A shard keeps its runs as text, or as runs.parquet alone with --parquet-only.
    shardBytes: shardRuns.map((runs) => runs * (parquet === "only" ? PARQUET_BYTES_A_RUN : TEXT_BYTES_A_RUN)),
    mergedBytes: plan.runCount * (textBytes + parquetBytes) + plan.pointCount * SUMMARY_BYTES_A_POINT,
  };
}

/** The dry run's lines: runs, CPU and disk a shard (least, median, most), and the merge's. */
export function formatSlurmPlan(plan: SlurmPlan, out: string, work: string): string {
  const spread = (values: readonly number[], format: (value: number) => string) => {
    const sorted = [...values].sort((a, b) => a - b);
    const median = sorted[Math.floor((sorted.length - 1) / 2)]!;
    const ratio = median > 0 ? `; most/median ${(sorted.at(-1)! / median).toFixed(2)}` : "";
    return `least ${format(sorted[0]!)}, median ${format(median)}, most ${format(sorted.at(-1)!)}${ratio}`;
  };
  const shardsTotal = plan.shardBytes.reduce((sum, bytes) => sum + bytes, 0);
  const lines = [
    `slurm dry run: ${plan.runs.toLocaleString("en")} runs in ${plan.shards.toLocaleString("en")} shards`,
    `  runs a shard: ${spread(plan.shardRuns, (value) => value.toLocaleString("en"))}`,
    plan.shardCpuSeconds === null
      ? "  CPU a shard: not timed (every grid point's runs are too costly to time in a dry run)"
      : `  CPU a shard (its runs, timed by the CPU a few take, as run --dry-run; an estimate): ${spread(plan.shardCpuSeconds, seconds)}; plus a shard process's start, ~1.5 s of CPU here`,
    `  disk: a shard's folder ${spread(plan.shardBytes, bytes)} (${bytes(shardsTotal)} in all), the merged folder ${bytes(plan.mergedBytes)}; ${bytes(shardsTotal + plan.mergedBytes)} at the merge's peak, shards and merged copy side by side`,
    `would write the job's scripts to ${work}/ and merge into ${out}/`,
    "dry run: nothing was written or submitted",
  ];
  return `${lines.join("\n")}\n`;
}

function seconds(value: number): string {
  if (value < 1) return `${Math.max(1, Math.round(value * 1000))} ms`;
  if (value < 120) return `${value.toFixed(1)} s`;
  if (value < 7200) return `${Math.round(value / 60)} min`;
  return `${(value / 3600).toFixed(1)} h`;
}

function bytes(value: number): string {
  return value >= 1e12 ? `${(value / 1e12).toPrecision(2)} TB` : value >= 1e9 ? `${(value / 1e9).toPrecision(2)} GB` : value >= 1e6 ? `${(value / 1e6).toPrecision(2)} MB` : `${Math.ceil(value / 1e3)} KB`;
}
