import { BOUND_ENTRIES, BOUND_KEYS, boundModes, describeBounds, type BoundKey, type BoundMode } from "../bounds/bound-choice.js";
import { beyondSeparable } from "../vocabulary/point-parameters.js";
import { generatorEntry } from "../generators/generator-registry.js";
import type { Experiment } from "../experiment/experiment.js";
import type { Grid } from "../vocabulary/grid.js";
import { pointCostOf, SPLIT_MODEL, splitCostOf } from "./estimate-run-cost.js";
import { identicalRepeatPoints, planSweep, type SkippedPoints } from "./plan-sweep.js";
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
  /**
   * The most multiply-adds the (shard's) runs can take: generation, and every run to maxEpochs, then once
   * more to find its pocket error (what a run that does not converge does); the max-margin QP not counted.
   */
  readonly maxMultiplyAdds: number;
  readonly maxEpochs: number;
  /** The bounds the runs compute: the declaration, and each name's mode with what it costs. */
  readonly bounds: {
    readonly declared: string;
    readonly optimal: boolean;
    readonly names: readonly { readonly key: BoundKey; readonly mode: BoundMode; readonly cost: string }[];
    /**
     * Runs (of the shard) drawn from a law made non-separable (noise or overlap above 0), and runs on data no law
     * is known to separate: data files (csv) and plug-in generators (decided when run).
     */
    readonly beyondSeparableRuns: number;
    readonly csvRuns: number;
  };
  /** Grid points whose repeats are one run repeated (repeatsIdentical), when there is more than one repeat. */
  readonly identicalRepeatPoints: number;
}

/**
 * Expands and costs an experiment's sweep without running it. `onRuns`, where given, is called with each
 * grid point's (shard's) runs in sweep order, a point's runs in one call or several, as the walk meets them
 * (the dry run's SweepTimer times some of them there: one walk, however large the sweep).
 */
export function describePlan(experiment: Experiment, shard: Shard | null = null, onRuns?: (point: SweepPoint, runs: number) => void): PlanDescription {
  const plan = planSweep(experiment);
  const costOf = pointCostOf(experiment.maxEpochs);
  let shardRuns = 0;
  let multiplyAdds = 0;
  let maxMultiplyAdds = 0;
  let beyondSeparableRuns = 0;
  let csvRuns = 0;
  const add = (point: SweepPoint, runs: number) => {
    shardRuns += runs;
    multiplyAdds += costOf(point) * runs;
    const { n, d, bias } = point.parameters;
    maxMultiplyAdds += (n * d + 2 * n * (bias ? d + 1 : d) * experiment.maxEpochs) * runs;
    if (beyondSeparable(point.parameters)) beyondSeparableRuns += runs;
    if (generatorEntry(point.parameters.generator).plotFamily === "data") csvRuns += runs;
    onRuns?.(point, runs);
  };
  if (shard === null) {
    for (const point of plan.points()) add(point, plan.repeats);
  } else {
    for (const { point } of shardRepeats(plan, shard, splitCostOf(experiment.maxEpochs, shard.split ?? SPLIT_MODEL))) add(point, 1);
  }
  const modes = boundModes(experiment.bounds);
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
    maxMultiplyAdds,
    maxEpochs: experiment.maxEpochs,
    bounds: {
      declared: describeBounds(experiment.bounds),
      optimal: experiment.optimal,
      names: BOUND_KEYS.map((key) => ({ key, mode: modes[key], cost: BOUND_ENTRIES[key].cost })),
      beyondSeparableRuns,
      csvRuns,
    },
    identicalRepeatPoints: identicalRepeatPoints(plan),
  };
}

function sweptKeys(grid: Grid): Record<string, readonly unknown[]> {
  const swept: Record<string, readonly unknown[]> = {};
  for (const [key, values] of Object.entries(grid)) if (values !== null && values.length > 1) swept[key] = values;
  return swept;
}
