import type { RunRow } from "../run/run-types.js";
import type { RunRange, SweepPoint } from "./run-batch.js";

export interface BatchOptions {
  /** Estimated multiply-adds a batch should carry (see estimateRunCost). */
  readonly targetCost: number;
  readonly maxRuns: number;
}

/**
 * 1.6·10^8 estimated multiply-adds per task, at most 256 runs. The estimate's epochs are the loose
 * (R̂/γ̂)², so real work is often ~100 times less: 256 runs of n 100, d 10, γ 0.1 take ~25 ms on one
 * thread here, 4 runs of n 1 000, d 50, γ 0.05 (4.1·10^7 each) ~8 ms. Each task costs the coordinator
 * ~0.2–0.5 ms of CPU when its thread is woken for it (the message, the writes), and a thread with no next
 * task queued waits a round trip: with 1.6·10^7, those heavy runs went one to a task, and a sweep of
 * 1 000 of them took 1.3–1.7 times as long (runExperiment with both targets alternated, 1 and 2 threads).
 * 256 runs' lines (~2 KB a run) and digest fit one slot of a worker's output ring (1 MiB, output-ring.ts).
 * Where the estimate is close (data beyond separable data run to maxEpochs), a task is 1.6·10^8
 * multiply-adds, 0.05–0.2 s at this machine's 1–3·10^9 a second.
 */
export const DEFAULT_BATCH_OPTIONS: BatchOptions = { targetCost: 16e7, maxRuns: 256 };

/**
 * The target with a run time limit (--run-timeout), which a whole task must keep: ten times smaller, so
 * that a task overrunning it (and retried run by run) is rarer and costs less.
 */
export const TIMED_BATCH_COST = 16e6;

/** A sweep is cut into at least this many batches a thread (runExperiment caps maxRuns by it). */
export const BATCHES_PER_THREAD = 16;

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
