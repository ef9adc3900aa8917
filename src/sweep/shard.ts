import { MinHeap } from "../math/min-heap.js";
import type { SweepPlan } from "./plan-sweep.js";
import type { RunRange, SweepPoint } from "./run-batch.js";

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
  /** Each shard's estimated load; the least on top (the lowest index on a tie, as a scan from shard 1 would pick). */
  readonly #shards = new MinHeap<{ load: number; readonly index: number }>((a, b) => a.load < b.load || (a.load === b.load && a.index < b.index));

  constructor(readonly shard: Shard) {
    for (let index = 0; index < shard.count; index++) this.#shards.push({ load: 0, index });
  }

  /** Whether the sweep's next run, of this estimated cost (see estimateRunCost), is this shard's. O(log count). */
  takes(cost: number): boolean {
    const least = this.#shards.peek()!;
    least.load += cost;
    this.#shards.replaceTop(least);
    return least.index === this.shard.index - 1;
  }
}

/** Every run of a sweep as (point, repeat), in sweep order. */
export function* allRepeats(plan: SweepPlan): Generator<{ point: SweepPoint; repeat: number }> {
  for (const point of plan.points()) for (let repeat = 0; repeat < plan.repeats; repeat++) yield { point, repeat };
}

/**
 * The runs of one shard, in sweep order (see ShardSplit). Every shard walks the sweep's grid points and
 * the split's loads (a run's cost is its point's, computed once a point); it expands only its own runs.
 */
export function* shardRepeats(plan: SweepPlan, shard: Shard, costOf: (point: SweepPoint) => number): Generator<{ point: SweepPoint; repeat: number }> {
  const split = new ShardSplit(shard);
  for (const point of plan.points()) {
    const cost = costOf(point);
    for (let repeat = 0; repeat < plan.repeats; repeat++) if (split.takes(cost)) yield { point, repeat };
  }
}

/**
 * The runs of one shard, walked once: their number, and the runs themselves as ranges of a point's
 * consecutive repeats, so that a sweep need not walk the split a second time. Held only up to `maxRanges`
 * ranges (a shard's runs are scattered, one range each, when the shards are many; two shards of equal runs
 * alternate): beyond it, `ranges` is null and the caller walks shardRepeats again.
 */
export function shardRuns(
  plan: SweepPlan,
  shard: Shard,
  costOf: (point: SweepPoint) => number,
  maxRanges = DEFAULT_MAX_RANGES,
): { readonly count: number; readonly ranges: readonly RunRange[] | null } {
  let count = 0;
  let ranges: RunRange[] | null = [];
  let last: { point: SweepPoint; from: number; to: number } | null = null;
  for (const { point, repeat } of shardRepeats(plan, shard, costOf)) {
    count++;
    if (ranges === null) continue;
    if (last !== null && last.point === point && last.to === repeat) {
      last.to++;
      continue;
    }
    if (ranges.length === maxRanges) {
      ranges = null;
      continue;
    }
    last = { point, from: repeat, to: repeat + 1 };
    ranges.push(last);
  }
  return { count, ranges };
}

/** The runs of ranges (as shardRuns keeps them), one by one, in order. */
export function* repeatsOf(ranges: readonly RunRange[]): Generator<{ point: SweepPoint; repeat: number }> {
  for (const { point, from, to } of ranges) for (let repeat = from; repeat < to; repeat++) yield { point, repeat };
}

/** About 50 MB of ranges at most (a range is a small object pointing at its grid point). */
const DEFAULT_MAX_RANGES = 1 << 20;

