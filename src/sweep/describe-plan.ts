import type { Experiment, Grid } from "../experiment/experiment.js";
import { estimateRunCost } from "./estimate-run-cost.js";
import { planSweep, type SkippedPoints } from "./plan-sweep.js";
import type { SweepPoint } from "./run-batch.js";
import { shardRepeats, type Shard } from "./shard.js";

/** What `run --dry-run` prints: the sweep an experiment expands into, counted and costed, with nothing run. */
export interface PlanDescription {
  readonly name: string;
  readonly points: number;
  readonly repeats: number;
  readonly runs: number;
  readonly skipped: readonly SkippedPoints[];
  /** Per grid: its valid points and the keys it sweeps (given with more than one value). */
  readonly grids: readonly { readonly grid: number; readonly points: number; readonly swept: Readonly<Record<string, readonly unknown[]>> }[];
  /** The runs of the shard asked for, or of the whole sweep. */
  readonly shard: Shard | null;
  readonly shardRuns: number;
  /**
   * estimateRunCost summed over the (shard's) runs: multiply-adds of generation and of the epochs the
   * planted (R̂/γ̂)² bound allows, capped by maxEpochs — an upper estimate of the perceptron's work (the
   * max-margin QP is not counted).
   */
  readonly multiplyAdds: number;
}

/** Expands and costs an experiment's sweep without running it. */
export function describePlan(experiment: Experiment, shard: Shard | null = null): PlanDescription {
  const plan = planSweep(experiment);
  const costOf = (point: SweepPoint) => estimateRunCost(point.parameters, experiment.maxEpochs);
  let shardRuns = 0;
  let multiplyAdds = 0;
  if (shard === null) {
    for (const point of plan.points()) multiplyAdds += costOf(point) * plan.repeats;
    shardRuns = plan.runCount;
  } else {
    for (const { point } of shardRepeats(plan, shard, costOf)) {
      shardRuns++;
      multiplyAdds += costOf(point);
    }
  }
  return {
    name: experiment.name,
    points: plan.pointCount,
    repeats: plan.repeats,
    runs: plan.runCount,
    skipped: plan.skipped,
    grids: experiment.grids.map((grid, index) => ({ grid: index, points: plan.gridPointCounts[index]!, swept: sweptKeys(grid) })),
    shard,
    shardRuns,
    multiplyAdds,
  };
}

function sweptKeys(grid: Grid): Record<string, readonly unknown[]> {
  const swept: Record<string, readonly unknown[]> = {};
  for (const [key, values] of Object.entries(grid)) if (values !== null && values.length > 1) swept[key] = values;
  return swept;
}
