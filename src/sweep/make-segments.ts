import type { RunRow, RunSpec } from "../run/run-types.js";
import { estimateRunCost } from "./estimate-run-cost.js";

export interface BatchOptions {
  /** Estimated multiply-adds a batch should carry (see estimateRunCost). */
  readonly targetCost: number;
  readonly maxRuns: number;
}

/**
 * 4·10^6 estimated multiply-adds (a few milliseconds) per task keeps Piscina's ~30 µs round trip
 * under a few percent of the work, while a sweep of heavy runs still spreads over every thread.
 */
export const DEFAULT_BATCH_OPTIONS: BatchOptions = { targetCost: 4e6, maxRuns: 1000 };

/** One run of the sweep in order: to run, or already recorded by a previous invocation. */
export type SweepItem = { readonly spec: RunSpec } | { readonly recorded: RunRow };
/** Consecutive items of one kind: a batch to run, or recorded rows to reuse as they are. */
export type Segment = { readonly specs: RunSpec[] } | { readonly recorded: RunRow[] };

/**
 * Cuts the sweep into segments, in order: runs to do are grouped into batches of about `targetCost`
 * (at least one run each, at most maxRuns); recorded rows into groups of at most maxRuns.
 */
export function* makeSegments(items: Iterable<SweepItem>, options: BatchOptions = DEFAULT_BATCH_OPTIONS): Generator<Segment> {
  let specs: RunSpec[] = [];
  let recorded: RunRow[] = [];
  let cost = 0;
  for (const item of items) {
    if ("recorded" in item) {
      if (specs.length > 0) yield { specs };
      specs = [];
      cost = 0;
      recorded.push(item.recorded);
      if (recorded.length >= options.maxRuns) {
        yield { recorded };
        recorded = [];
      }
      continue;
    }
    if (recorded.length > 0) yield { recorded };
    recorded = [];
    specs.push(item.spec);
    cost += estimateRunCost(item.spec);
    if (cost >= options.targetCost || specs.length >= options.maxRuns) {
      yield { specs };
      specs = [];
      cost = 0;
    }
  }
  if (specs.length > 0) yield { specs };
  if (recorded.length > 0) yield { recorded };
}
