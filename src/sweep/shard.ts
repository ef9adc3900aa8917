import type { SplitModel } from "./estimate-run-cost.js";
import type { SweepPlan } from "./plan-sweep.js";
import type { RunRange, SweepPoint } from "./run-batch.js";

/** Shard `index` of `count`, counted from 1 as vitest and jest do. */
export interface Shard {
  readonly index: number;
  readonly count: number;
  /** The split model the sweep's shards are cut by (estimate-run-cost.ts); absent in folders of 0.14 and before: 1. */
  readonly split?: SplitModel;
}

/** The split model of a recorded shard (1 where the folder's tool recorded none). */
export function splitOf(shard: Shard): SplitModel {
  return shard.split ?? 1;
}

/**
 * Blocks of equal estimated cost per shard: the sweep is cut into count × BLOCKS_PER_SHARD of them, and
 * each shard takes every count-th one, so that its runs lie in that many stretches spread over the sweep
 * (an error of the cost estimate in one region of the grid falls on every shard a little, not on one).
 */
export const BLOCKS_PER_SHARD = 8;

/**
 * How a sweep is split into `count` shards of about equal estimated cost (estimateRunCost), not equal
 * count: the sweep's runs, in order, are laid end to end by cost and cut into count × BLOCKS_PER_SHARD
 * blocks of equal cost; a run belongs to the block its cost's midpoint falls in, and block b to shard
 * (b mod count) + 1. Every run is in one shard, and no shard's estimated cost exceeds another's by more than
 * 2 × BLOCKS_PER_SHARD heaviest runs. Each shard computes its own runs from the points alone (a point's
 * repeats share its cost): O(points + its own runs), where a walk of every run of the sweep had taken
 * 27.8 s a shard at 10⁸ runs in 10⁵ shards. The split depends only on the sweep, so every shard computes
 * the same one.
 */
export class BlockSplit {
  /** The sweep's estimated cost, every run's summed in sweep order (as blockOf sums them). */
  readonly total: number;
  readonly blocks: number;

  constructor(
    readonly plan: SweepPlan,
    readonly count: number,
    readonly costOf: (point: SweepPoint) => number,
  ) {
    let total = 0;
    for (const point of plan.points()) total += costOf(point) * plan.repeats;
    this.total = total;
    this.blocks = count * BLOCKS_PER_SHARD;
  }

  /** The block of repeat `repeat` of a point whose runs start at cost `start` and cost `cost` each: non-decreasing in repeat. */
  blockOf(start: number, cost: number, repeat: number): number {
    return Math.min(this.blocks - 1, Math.floor(((start + (repeat + 0.5) * cost) / this.total) * this.blocks));
  }

  /** The shard (from 1) of block `block`. */
  shardOf(block: number): number {
    return (block % this.count) + 1;
  }

  /**
   * Every block that holds runs, in sweep order, with its shard and its number of runs: what a merge reads
   * from each shard in turn. O(points + blocks · log repeats).
   */
  *blockRuns(): Generator<{ readonly block: number; readonly shard: number; readonly runs: number }> {
    const repeats = this.plan.repeats;
    let start = 0;
    let current = -1;
    let runs = 0;
    for (const point of this.plan.points()) {
      const cost = this.costOf(point);
      for (let from = 0; from < repeats; ) {
        const block = this.blockOf(start, cost, from);
        const to = this.#firstRepeatAfter(start, cost, block, from, repeats);
        if (block !== current) {
          if (runs > 0) yield { block: current, shard: this.shardOf(current), runs };
          current = block;
          runs = 0;
        }
        runs += to - from;
        from = to;
      }
      start += cost * repeats;
    }
    if (runs > 0) yield { block: current, shard: this.shardOf(current), runs };
  }

  /** The runs of shard `index` as stretches of a point's repeats, in sweep order: O(points + its stretches · log repeats). */
  *shardStretches(index: number): Generator<RunRange> {
    const repeats = this.plan.repeats;
    const count = this.count;
    let start = 0;
    for (const point of this.plan.points()) {
      const cost = this.costOf(point);
      const first = this.blockOf(start, cost, 0);
      const last = this.blockOf(start, cost, repeats - 1);
      // The first of this shard's blocks at or after `first`, then every count-th.
      for (let block = first + ((((index - 1 - first) % count) + count) % count); block <= last; block += count) {
        const from = block === first ? 0 : this.#firstRepeatAfter(start, cost, block - 1, 0, repeats);
        const to = this.#firstRepeatAfter(start, cost, block, from, repeats);
        if (to > from) yield { point, from, to };
      }
      start += cost * repeats;
    }
  }

  /** The first repeat in [from, repeats) whose block is past `block` (repeats if none): a binary search, blockOf being non-decreasing. */
  #firstRepeatAfter(start: number, cost: number, block: number, from: number, repeats: number): number {
    let lo = from;
    let hi = repeats;
    while (lo < hi) {
      const mid = lo + Math.floor((hi - lo) / 2);
      if (this.blockOf(start, cost, mid) > block) hi = mid;
      else lo = mid + 1;
    }
    return lo;
  }
}

/** Every run of a sweep as (point, repeat), in sweep order. */
export function* allRepeats(plan: SweepPlan): Generator<{ point: SweepPoint; repeat: number }> {
  for (const point of plan.points()) for (let repeat = 0; repeat < plan.repeats; repeat++) yield { point, repeat };
}

/** The runs of one shard, in sweep order (see BlockSplit). */
export function* shardRepeats(plan: SweepPlan, shard: Shard, costOf: (point: SweepPoint) => number): Generator<{ point: SweepPoint; repeat: number }> {
  for (const { point, from, to } of new BlockSplit(plan, shard.count, costOf).shardStretches(shard.index)) {
    for (let repeat = from; repeat < to; repeat++) yield { point, repeat };
  }
}

/**
 * The runs of one shard, walked once: their number, and the runs themselves as ranges of a point's
 * consecutive repeats (a few a block: see BlockSplit), so that a sweep need not walk the split a second
 * time. Held only up to `maxRanges` ranges (a sweep of many points of few repeats has a range a point):
 * beyond it, `ranges` is null and the caller walks shardRepeats again.
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
  for (const { point, from, to } of new BlockSplit(plan, shard.count, costOf).shardStretches(shard.index)) {
    count += to - from;
    if (ranges === null) continue;
    if (last !== null && last.point === point && last.to === from) {
      last.to = to;
      continue;
    }
    if (ranges.length === maxRanges) {
      ranges = null;
      continue;
    }
    last = { point, from, to };
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

