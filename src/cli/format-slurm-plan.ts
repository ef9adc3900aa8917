import type { SlurmPlan } from "../cluster/slurm-dry-run.js";
import { bytesText, seconds } from "./format-plan.js";

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
      : `  CPU a shard (its runs, timed by the CPU a few take, as run --dry-run; an estimate): ${spread(plan.shardCpuSeconds, seconds)}; plus a shard process's start (~0.6 s of CPU on one thread on a 2-core EPYC: docs/beyond-one-machine.md)`,
    `  disk: a shard's folder ${spread(plan.shardBytes, bytesText)} (${bytesText(shardsTotal)} in all), the merged folder ${bytesText(plan.mergedBytes)}; ${bytesText(shardsTotal + plan.mergedBytes)} at the merge's peak, shards and merged copy side by side`,
    `would write the job's scripts to ${work}/ and merge into ${out}/`,
    "dry run: nothing was written or submitted",
  ];
  return `${lines.join("\n")}\n`;
}
