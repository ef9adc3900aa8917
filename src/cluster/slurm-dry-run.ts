import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { SweepTimer } from "../runner/calibrate-sweep.js";
import { SPLIT_MODEL, splitCostOf } from "../sweep/estimate-run-cost.js";
import { planSweep } from "../sweep/plan-sweep.js";
import type { SweepPoint } from "../sweep/run-batch.js";
import { BlockSplit } from "../sweep/shard.js";
import { DEFAULT_RUN_TABLES, TABLE_BYTES, type RunTableName } from "../vocabulary/result-files.js";


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
export function planSlurmJob(loaded: LoadedExperiment, shards: number, tables: readonly RunTableName[] = loaded.experiment.tables ?? DEFAULT_RUN_TABLES): SlurmPlan {
  const plan = planSweep(loaded.experiment);
  // The split and the untimed runs' costs by the split model the tasks will use.
  const costOf = splitCostOf(plan.settings.maxEpochs, SPLIT_MODEL);
  const split = new BlockSplit(plan, shards, costOf);
  const timer = new SweepTimer(plan.settings, plan.pointCount, { dataSets: loaded.dataSets });
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
  // A complete shard keeps runs.parquet and its views; while it runs, its journal and its views.
  const keptBytes = TABLE_BYTES.parquetRun + (tables.includes("jsonl") ? TABLE_BYTES.jsonlRun : 0) + (tables.includes("csv") ? TABLE_BYTES.csvRun : 0);
  return {
    shards,
    runs: plan.runCount,
    shardRuns,
    shardCpuSeconds,
    // At its largest: at the end of its run, the journal, the views and runs.parquet side by side.
    shardBytes: shardRuns.map((runs) => runs * (keptBytes + TABLE_BYTES.journalRun)),
    mergedBytes: plan.runCount * keptBytes + plan.pointCount * TABLE_BYTES.summaryPoint,
  };
}
