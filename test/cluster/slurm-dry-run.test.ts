import { readdirSync } from "node:fs";
import { resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { planSlurmJob } from "../../src/cluster/slurm-dry-run.js";
import { formatSlurmPlan } from "../../src/cli/format-slurm-plan.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { SPLIT_MODEL, splitCostOf } from "../../src/sweep/estimate-run-cost.js";
import { planSweep } from "../../src/sweep/plan-sweep.js";
import { BlockSplit } from "../../src/sweep/shard.js";

describe("slurm --dry-run", () => {
  it("deals the runs as the shards will (the same split), with CPU and disk a shard and the merge's, writing nothing", () => {
    const loaded = loadExperiment(resolve("experiments/margins.json"), { overrides: ["repeats=4"] });
    const before = readdirSync(".");
    const plan = planSlurmJob(loaded, 5, ["csv", "jsonl", "parquet"]);
    expect(readdirSync(".")).toEqual(before);
    const sweep = planSweep(loaded.experiment);
    const split = new BlockSplit(sweep, 5, splitCostOf(sweep.settings.maxEpochs, SPLIT_MODEL));
    for (let index = 1; index <= 5; index++) {
      const runs = [...split.shardStretches(index)].reduce((sum, stretch) => sum + stretch.to - stretch.from, 0);
      expect(plan.shardRuns[index - 1], `shard ${index}`).toBe(runs);
    }
    expect(plan.shardRuns.reduce((a, b) => a + b, 0)).toBe(sweep.runCount);
    expect(plan.shardCpuSeconds).toHaveLength(5);
    expect(plan.shardCpuSeconds!.every((seconds) => seconds > 0)).toBe(true);
    // At a shard's end its journal, its views and runs.parquet lie side by side; the merged folder keeps the views and runs.parquet.
    expect(plan.shardBytes).toEqual(plan.shardRuns.map((runs) => runs * (1700 + 600 + 170 + 80)));
    expect(plan.mergedBytes).toBe(96 * (1700 + 600 + 170) + sweep.pointCount * 7700);
    expect(planSlurmJob(loaded, 5, ["parquet"]).shardBytes).toEqual(plan.shardRuns.map((runs) => runs * (170 + 80)));
    const text = formatSlurmPlan(plan, "results/margins", "results/margins-slurm");
    expect(text).toMatch(/^slurm dry run: 96 runs in 5 shards\n  runs a shard: least \d+, median \d+, most \d+; most\/median \d+\.\d\d\n  CPU a shard .*: least .+, median .+, most .+\n  disk: a shard's folder least .+ the merged folder .+\nwould write the job's scripts to results\/margins-slurm\/ and merge into results\/margins\/\ndry run: nothing was written or submitted\n$/);
  });
});
