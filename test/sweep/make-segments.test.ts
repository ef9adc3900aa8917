import { describe, expect, it } from "vitest";
import { executeRun } from "../../src/run/execute-run.js";
import { estimateRunCost } from "../../src/sweep/estimate-run-cost.js";
import { DEFAULT_BATCH_OPTIONS, makeSegments, type Segment, type SweepItem } from "../../src/sweep/make-segments.js";
import { batchLength, runSpecOf, type SweepPoint } from "../../src/sweep/run-batch.js";
import { pointParameters, sweepPoint as pointOf, TEST_SETTINGS } from "../helpers.js";

const settings = { ...TEST_SETTINGS, optimal: false };
const light = pointParameters({ n: 40, d: 3 });
const heavyParameters = pointParameters({ n: 10_000, d: 1000, margin: 0.01 });
const costOf = (point: SweepPoint) => estimateRunCost(point.parameters, settings.maxEpochs);
const todo = (point: SweepPoint, from: number, to: number): SweepItem => ({ todo: { point, from, to } });
const recorded = (point: SweepPoint, repeat: number): SweepItem => ({ recorded: executeRun(runSpecOf(settings, point, repeat)) });
const shape = (segments: Iterable<Segment>) =>
  [...segments].map((segment) => ("ranges" in segment ? `run ${batchLength({ settings, ranges: segment.ranges })} ${segment.ranges.map((r) => `${r.point.point}:${r.from}-${r.to}`).join(",")}` : `reuse ${segment.recorded.length}`));

describe("makeSegments", () => {
  it("keeps the sweep order and cuts batches by estimated cost", () => {
    const point = pointOf(0);
    const segments = shape(makeSegments([todo(point, 0, 100)], costOf, { targetCost: costOf(point) * 10, maxRuns: 1000 }));
    expect(segments).toEqual(Array.from({ length: 10 }, (_, k) => `run 10 0:${10 * k}-${10 * k + 10}`));
  });

  it("caps a batch's length, joins adjacent repeats and points, and gives a heavy run a batch of its own", () => {
    const [a, b] = [pointOf(0, light, 4), pointOf(1, light, 4)];
    const items = [todo(a, 0, 1), todo(a, 1, 2), todo(a, 2, 4), todo(b, 0, 4)];
    expect(shape(makeSegments(items, costOf, { targetCost: Infinity, maxRuns: 3 }))).toEqual(["run 3 0:0-3", "run 3 0:3-4,1:0-2", "run 2 1:2-4"]);
    const heavy = pointOf(0, heavyParameters, 1);
    expect(costOf(heavy)).toBeGreaterThan(DEFAULT_BATCH_OPTIONS.targetCost);
    expect(shape(makeSegments([todo(heavy, 0, 1), todo(pointOf(1, light, 1), 0, 1)], costOf))).toEqual(["run 1 0:0-1", "run 1 1:0-1"]);
  });

  it("cuts around recorded rows, in sweep order, grouping them by maxRuns", () => {
    const point = pointOf(0, light, 7);
    const items = [todo(point, 0, 1), todo(point, 1, 2), recorded(point, 2), recorded(point, 3), recorded(point, 4), todo(point, 5, 6), recorded(point, 6)];
    const segments = [...makeSegments(items, costOf, { targetCost: Infinity, maxRuns: 2 })];
    expect(shape(segments)).toEqual(["run 2 0:0-2", "reuse 2", "reuse 1", "run 1 0:5-6", "reuse 1"]);
    const runs = segments.flatMap((segment) =>
      "ranges" in segment ? segment.ranges.flatMap((r) => Array.from({ length: r.to - r.from }, (_, k) => r.point.firstRun + r.from + k)) : segment.recorded.map((row) => row.run),
    );
    expect(runs).toEqual([0, 1, 2, 3, 4, 5, 6]);
  });
});
