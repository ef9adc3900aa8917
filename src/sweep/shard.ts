import type { RunSpec } from "../run/run-types.js";
import { estimateRunCost } from "./estimate-run-cost.js";

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
export function* shardRuns(runs: Iterable<RunSpec>, shard: Shard): Generator<RunSpec> {
  const load = new Float64Array(shard.count);
  for (const spec of runs) {
    let target = 0;
    for (let k = 1; k < shard.count; k++) if (load[k]! < load[target]!) target = k;
    load[target]! += estimateRunCost(spec);
    if (target === shard.index - 1) yield spec;
  }
}
