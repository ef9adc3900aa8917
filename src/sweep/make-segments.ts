import type { RunRow } from "../run/run-types.js";
import type { RunRange, SweepPoint } from "./run-batch.js";

export interface BatchOptions {
  /** Estimated multiply-adds a batch should carry (see estimateRunCost). */
  readonly targetCost: number;
  readonly maxRuns: number;
}

/**
 * 1.6·10^7 estimated multiply-adds per task. The estimate's epochs are the loose (R̂/γ̂)², so real
 * work is often far less: 72 runs of n 100, d 10, γ 0.1, about 10 ms on one thread here. A task then
 * costs the coordinator (one message each way, two writes) a few percent of a worker's time on it, while
 * a sweep of heavy runs still spreads over every thread.
 */
export const DEFAULT_BATCH_OPTIONS: BatchOptions = { targetCost: 16e6, maxRuns: 1000 };

/** Runs of the sweep in order: a range to run, or a row already recorded by a previous invocation. */
export type SweepItem = { readonly todo: RunRange } | { readonly recorded: RunRow };
/** Consecutive items of one kind: a batch to run (its ranges), or recorded rows to reuse as they are. */
export type Segment = { readonly ranges: RunRange[] } | { readonly recorded: RunRow[] };

/**
 * Cuts the sweep into segments, in order: runs to do are grouped into batches of about `targetCost`
 * (at least one run each, at most maxRuns; adjacent repeats of a point in one range); recorded rows
 * into groups of at most maxRuns. `costOf` is the estimated cost of each run of a point.
 */
export function* makeSegments(items: Iterable<SweepItem>, costOf: (point: SweepPoint) => number, options: BatchOptions = DEFAULT_BATCH_OPTIONS): Generator<Segment> {
  let ranges: RunRange[] = [];
  let runs = 0;
  let cost = 0;
  let recorded: RunRow[] = [];
  const batch = (): Segment => {
    const segment = { ranges };
    ranges = [];
    runs = 0;
    cost = 0;
    return segment;
  };
  for (const item of items) {
    if ("recorded" in item) {
      if (runs > 0) yield batch();
      recorded.push(item.recorded);
      if (recorded.length >= options.maxRuns) {
        yield { recorded };
        recorded = [];
      }
      continue;
    }
    if (recorded.length > 0) yield { recorded };
    recorded = [];
    const { point, to } = item.todo;
    const each = costOf(point);
    // A NaN would make every count below NaN, and the loop hand out no run at all.
    if (!(each >= 0)) throw new RangeError(`the estimated cost of grid point ${point.point} is ${each}`);
    for (let from = item.todo.from; from < to; ) {
      // As many runs as bring the batch to its target cost, at least one, within maxRuns.
      const take = Math.min(to - from, options.maxRuns - runs, Math.max(1, Math.ceil((options.targetCost - cost) / each)));
      const last = ranges[ranges.length - 1];
      if (last !== undefined && last.point === point && last.to === from) ranges[ranges.length - 1] = { point, from: last.from, to: from + take };
      else ranges.push({ point, from, to: from + take });
      from += take;
      runs += take;
      cost += take * each;
      if (cost >= options.targetCost || runs >= options.maxRuns) yield batch();
    }
  }
  if (runs > 0) yield batch();
  if (recorded.length > 0) yield { recorded };
}
