import fc from "fast-check";
import { medianSorted, quantileSorted } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { PointSummariser } from "../../src/aggregate/point-summariser.js";
import { digestRows } from "../../src/aggregate/run-digest.js";
import { medianOf } from "../../src/aggregate/statistics.js";
import { statistics, summarisePoint } from "../../src/aggregate/summarise-point.js";
import { errorRow, executeRun } from "../../src/run/execute-run.js";
import type { RunRow, RunSpec } from "../../src/run/run-types.js";
import { runSpec, STRUCTURED } from "../helpers.js";

const spec = (run: number, point: number): RunSpec =>
  runSpec({ run, point, repeat: run, seed: 77 + run, generator: "orthonormal", n: 6, d: 6, ...STRUCTURED, bias: false, maxEpochs: 100 });

describe("statistics", () => {
  it("matches a hand computation", () => {
    // 1, 2, 3, 4, 10: mean 4, sample variance (9 + 4 + 1 + 0 + 36)/4 = 12.5, median 3.
    // p90 by linear interpolation (R type 7, numpy's default): index (5 − 1)·0.9 = 3.6 between the
    // sorted values 4 and 10: 4 + 0.6·6 = 7.6. p10: index 0.4 between 1 and 2 = 1.4; p25: index 1 = 2;
    // p75: index 3 = 4.
    const stats = statistics([3, 1, 10, 2, 4]);
    expect(stats).toMatchObject({ mean: 4, sd: Math.sqrt(12.5), min: 1, p25: 2, median: 3, p75: 4, max: 10 });
    expect(stats.p10).toBeCloseTo(1.4, 12);
    expect(stats.p90).toBeCloseTo(7.6, 12);
    // The keys in this order are summary.csv's columns.
    expect(Object.keys(stats)).toEqual(["mean", "sd", "min", "p10", "p25", "median", "p75", "p90", "max"]);
  });

  it("takes the quantiles a full sort gives, ties and long columns included", () => {
    // Quickselect places the order statistics instead of sorting; the numbers must be a sort's, bit for bit.
    const value = fc.oneof(fc.integer({ min: 0, max: 6 }), fc.double({ min: -1e6, max: 1e6, noNaN: true, noDefaultInfinity: true }));
    const column = fc.oneof(fc.array(value, { minLength: 1, maxLength: 40 }), fc.array(value, { minLength: 601, maxLength: 1500 }));
    fc.assert(
      fc.property(column, (values) => {
        // −0 and +0 may trade places (both print as 0): compared after adding 0, which makes −0 +0.
        const same = (value: number | null) => (value === null ? null : value + 0);
        const sorted = Float64Array.from(values).sort() as unknown as number[];
        const stats = statistics(Float64Array.from(values));
        const quantiles = [stats.p10, stats.p25, stats.median, stats.p75, stats.p90].map(same);
        expect(quantiles).toEqual([quantileSorted(sorted, 0.1), quantileSorted(sorted, 0.25), medianSorted(sorted), quantileSorted(sorted, 0.75), quantileSorted(sorted, 0.9)].map(same));
        expect(same(medianOf(Float64Array.from(values)).median)).toBe(same(medianSorted(sorted)));
        expect(same(statistics(values).p90)).toBe(same(quantileSorted(sorted, 0.9)));
      }),
      // No shrinking: shrinking columns of thousands of values would take minutes.
      { numRuns: 300, endOnFailure: true },
    );
  });

  it("has no sd for one value and nothing for none", () => {
    expect(statistics([5])).toEqual({ mean: 5, sd: null, min: 5, p10: 5, p25: 5, median: 5, p75: 5, p90: 5, max: 5 });
    expect(statistics([])).toEqual({ mean: null, sd: null, min: null, p10: null, p25: null, median: null, p75: null, p90: null, max: null });
  });
});

describe("summarisePoint", () => {
  it("counts runs, converged runs and errors, and takes statistics over converged runs only", () => {
    const rows: RunRow[] = [executeRun(spec(0, 0)), executeRun(spec(1, 0)), errorRow(spec(2, 0), "boom")];
    const summary = summarisePoint(rows);
    expect(summary).toMatchObject({ point: 0, generator: "orthonormal", n: 6, runs: 3, converged: 2, errors: 1, violations: 0 });
    expect(summary.updates).toEqual({ mean: 6, sd: 0, min: 6, p10: 6, p25: 6, median: 6, p75: 6, p90: 6, max: 6 });
    expect(summary.plantedNovikoffBound).toEqual({ median: 6 });
    expect(summary.plantedHuRatio.median).toBeCloseTo(6 / 6, 12);
  });

  it("takes the bounds' and margins' medians over every run that did not fail, converged or not: a point with no converged run keeps its bounds", () => {
    // Planted n 50, d 5, γ 0.01: one epoch is far too few (Novikoff's bound is ~2·10⁴).
    const capped = (run: number) => runSpec({ run, repeat: run, seed: 500 + run, margin: 0.01, maxEpochs: 1 });
    const rows = [0, 1, 2].map((run) => executeRun(capped(run)));
    expect(rows.map((row) => row.converged)).toEqual([false, false, false]);
    const summary = summarisePoint(rows);
    expect(summary.converged).toBe(0);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[1]!;
    expect(summary.plantedNovikoffBound).toEqual({ median: median(rows.map((row) => row.plantedNovikoffBound!)) });
    expect(summary.plantedNovikoffBound.median).toBeGreaterThan(1000);
    expect(summary.optimalMargin).toEqual({ median: median(rows.map((row) => row.optimalMargin!)) });
    expect(summary.learnerRadius.median).toBeGreaterThan(0);
    // What needs a count stays over converged runs: none here.
    expect(summary.updates.median).toBeNull();
    expect(summary.plantedNovikoffRatio.median).toBeNull();
  });
});

describe("PointSummariser", () => {
  it("emits a point's summary when the next point starts, and the last at finish", () => {
    const summariser = new PointSummariser();
    const rows = [spec(0, 0), spec(1, 0), spec(2, 1), spec(3, 2), spec(4, 2), spec(5, 3)].map((s) => executeRun(s));
    const batches = [[rows[0]!], [rows[1]!, rows[2]!, rows[3]!], [rows[4]!, rows[5]!]];
    const emitted = batches.map((batch) => summariser.add(digestRows(batch)).map((summary) => summary.point));
    expect(emitted).toEqual([[], [0, 1], [2]]);
    expect(summariser.finish()).toEqual(summarisePoint([rows[5]!]));
    expect(summariser.finish()).toBeNull();
  });

  it("summarises the same in batches of any size", () => {
    const rows = Array.from({ length: 9 }, (_, k) => executeRun(spec(k, Math.floor(k / 4))));
    const summaries = (size: number) => {
      const summariser = new PointSummariser();
      const out = [];
      for (let k = 0; k < rows.length; k += size) out.push(...summariser.add(digestRows(rows.slice(k, k + size))));
      return [...out, summariser.finish()];
    };
    expect(summaries(1)).toEqual(summaries(9));
    expect(summaries(2)).toEqual(summaries(9));
    expect(summaries(9).map((summary) => summary?.runs)).toEqual([4, 4, 1]);
  });
});
