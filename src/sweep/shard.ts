import type { SweepPlan } from "./plan-sweep.js";
import type { SweepPoint } from "./run-batch.js";

/** Shard `index` of `count`, counted from 1 as vitest and jest do. */
export interface Shard {
  readonly index: number;
  readonly count: number;
}

/**
 * Splits a sweep into `count` shards of about equal expected cost, not equal count: each run, in sweep
 * order, goes to the shard with the least estimated cost so far (the lowest index on a tie). The split
 * depends only on the sweep, so every shard computes the same one and keeps its own runs.
 */
export class ShardSplit {
  readonly #load: Float64Array;

  constructor(readonly shard: Shard) {
    this.#load = new Float64Array(shard.count);
  }

  /** Whether the sweep's next run, of this estimated cost (see estimateRunCost), is this shard's. */
  takes(cost: number): boolean {
    const load = this.#load;
    let target = 0;
    for (let k = 1; k < load.length; k++) if (load[k]! < load[target]!) target = k;
    load[target]! += cost;
    return target === this.shard.index - 1;
  }
}

/** Every run of a sweep as (point, repeat), in sweep order. */
export function* allRepeats(plan: SweepPlan): Generator<{ point: SweepPoint; repeat: number }> {
  for (const point of plan.points()) for (let repeat = 0; repeat < plan.repeats; repeat++) yield { point, repeat };
}

/** The runs of one shard, in sweep order (see ShardSplit). */
export function* shardRepeats(plan: SweepPlan, shard: Shard, costOf: (point: SweepPoint) => number): Generator<{ point: SweepPoint; repeat: number }> {
  const split = new ShardSplit(shard);
  for (const { point, repeat } of allRepeats(plan)) if (split.takes(costOf(point))) yield { point, repeat };
}
