import { describe, expect, it } from "vitest";
import { executeRun } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { estimateRunCost } from "../../src/sweep/estimate-run-cost.js";
import { DEFAULT_BATCH_OPTIONS, makeSegments, type Segment, type SweepItem } from "../../src/sweep/make-segments.js";
import { runSpec } from "../helpers.js";

const spec = (run: number, overrides: Partial<RunSpec> = {}): RunSpec => runSpec({ run, point: run, seed: 1000 + run, n: 40, d: 3, ...overrides });
const toRun = (runs: readonly RunSpec[]): SweepItem[] => runs.map((s) => ({ spec: s }));
const shape = (segments: Iterable<Segment>) => [...segments].map((segment) => ("specs" in segment ? `run ${segment.specs.length}` : `reuse ${segment.recorded.length}`));

describe("makeSegments", () => {
  it("keeps the sweep order and cuts batches by estimated cost", () => {
    const runs = Array.from({ length: 100 }, (_, i) => spec(i));
    const cost = estimateRunCost(runs[0]!);
    const segments = [...makeSegments(toRun(runs), { targetCost: cost * 10, maxRuns: 1000 })];
    expect(shape(segments)).toEqual(Array(10).fill("run 10"));
    expect(segments.flatMap((segment) => ("specs" in segment ? segment.specs : []))).toEqual(runs);
  });

  it("caps a batch's length and gives a heavy run a batch of its own", () => {
    const runs = Array.from({ length: 7 }, (_, i) => spec(i));
    expect(shape(makeSegments(toRun(runs), { targetCost: Infinity, maxRuns: 3 }))).toEqual(["run 3", "run 3", "run 1"]);
    const heavy = spec(0, { n: 10_000, d: 1000, margin: 0.01 });
    expect(estimateRunCost(heavy)).toBeGreaterThan(DEFAULT_BATCH_OPTIONS.targetCost);
    expect(shape(makeSegments(toRun([heavy, spec(1)])))).toEqual(["run 1", "run 1"]);
  });

  it("cuts around recorded rows, in sweep order, grouping them by maxRuns", () => {
    const recorded = (i: number): SweepItem => ({ recorded: executeRun(spec(i, { optimal: false })) });
    const items: SweepItem[] = [{ spec: spec(0) }, { spec: spec(1) }, recorded(2), recorded(3), recorded(4), { spec: spec(5) }, recorded(6)];
    const segments = [...makeSegments(items, { targetCost: Infinity, maxRuns: 2 })];
    expect(shape(segments)).toEqual(["run 2", "reuse 2", "reuse 1", "run 1", "reuse 1"]);
    const order = segments.flatMap((segment) => ("specs" in segment ? segment.specs.map((s) => s.run) : segment.recorded.map((row) => row.run)));
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
