import type { RunTableName } from "../../src/vocabulary/result-files.js";
import { describe, expect, it } from "vitest";
import { formatPlan } from "../../src/cli/format-plan.js";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { SweepTimer } from "../../src/runner/calibrate-sweep.js";
import { describePlan } from "../../src/sweep/describe-plan.js";
import { planSweep } from "../../src/sweep/plan-sweep.js";
import type { Shard } from "../../src/sweep/shard.js";
import type { SweepPoint } from "../../src/sweep/run-batch.js";
import { SPLIT_MODEL, splitRunCost } from "../../src/sweep/estimate-run-cost.js";

const experiment = (value: Record<string, unknown>) => parseExperiment({ name: "t", ...value }, "t");

/** The dry run's plan with its time estimate, as `run --dry-run` gathers them: one walk. */
function timedPlan(sweep: ReturnType<typeof experiment>, shard: Shard | null = null, budgetMs = 300) {
  const plan = planSweep(sweep);
  const timer = new SweepTimer(plan.settings, plan.pointCount, { budgetMs });
  const described = describePlan(sweep, shard, (point, runs) => timer.add(point, runs));
  return { described, calibration: timer.result() };
}

describe("the dry run's time estimate", () => {
  it("times a run of each of a few grid points and scales the sweep's runs by them, shard by shard", () => {
    const sweep = experiment({ repeats: 30, grid: { n: [20, 40], d: [2, 5], margin: [0.1, 0.2] } });
    const { described, calibration } = timedPlan(sweep);
    expect(calibration!.timedRuns).toBeGreaterThanOrEqual(1);
    expect(calibration!.timedRuns).toBeLessThanOrEqual(8);
    expect(calibration!.cpuSeconds).toBeGreaterThan(0);
    const text = formatPlan(described, "t.json", "results/t", { calibration, threads: 1 });
    // Any duration, in any of its units: the timing is the machine's (a loaded one took over a second).
    const duration = String.raw`\d+(\.\d)? (ms|s|min|h)`;
    expect(text).toMatch(new RegExp(String.raw`^estimated time: the runs about ${duration} of CPU, so about ${duration} on 1 thread at best, plus a second or two to start \(timed by the CPU it took: the first runs of \d grid points?, in memory in ${duration}`, "m"));
  });

  it("counts a shard's own runs: the shards' estimates add up to the whole sweep's (a clock that gives each point a fixed time)", () => {
    const sweep = experiment({ repeats: 30, grid: { n: [20, 40], d: [2, 5], margin: [0.1, 0.2] } });
    // A stand-in clock: a point's run takes n·d µs, whenever it is timed.
    const estimate = (shard: Shard | null) => {
      const plan = planSweep(sweep);
      const timer = new SweepTimer(plan.settings, plan.pointCount, { timeOf: (point) => point.parameters.n * point.parameters.d * 1e-6 });
      describePlan(sweep, shard, (point, runs) => timer.add(point, runs));
      return timer.result()!.cpuSeconds;
    };
    // Every point timed (8 points): 30 runs each of n·d µs.
    const whole = estimate(null);
    expect(whole).toBeCloseTo(30 * (20 * 2 + 20 * 5 + 40 * 2 + 40 * 5) * 2 * 1e-6, 12);
    const shards = [1, 2, 3].map((index) => estimate({ index, count: 3 }));
    expect(shards.reduce((a, b) => a + b, 0)).toBeCloseTo(whole, 12);
    expect(shards.every((part) => part > 0 && part < whole)).toBe(true);
  });

  it("states how far the cost model was off on the timed points: ×1 where the runs cost what it says, the spread of a clock it does not know", () => {
    const sweep = experiment({ repeats: 3, grid: { n: [20, 40], d: [2, 5], margin: [0.1, 0.2] } });
    const errorOf = (timeOf: (point: SweepPoint) => number) => {
      const plan = planSweep(sweep);
      const timer = new SweepTimer(plan.settings, plan.pointCount, { timeOf });
      describePlan(sweep, null, (point, runs) => timer.add(point, runs));
      return timer.result()!.modelError!;
    };
    // A clock that charges the model's own cost: every prediction exact.
    const exact = errorOf((point) => splitRunCost(point.parameters, sweep.maxEpochs, SPLIT_MODEL) * 1e-9);
    expect(exact.points).toBe(7);
    expect(exact.low).toBeCloseTo(1, 12);
    expect(exact.high).toBeCloseTo(1, 12);
    // One that charges n·d µs: the model's fixed cost misjudges it, and the range says by how much.
    const other = errorOf((point) => point.parameters.n * point.parameters.d * 1e-6);
    expect(other.low).toBeLessThan(0.9);
    expect(other.high).toBeGreaterThan(1.1);
    const plan = planSweep(sweep);
    const text = formatPlan(describePlan(sweep), "t.json", "results/t", { calibration: { cpuSeconds: 1, timedRuns: 8, seconds: 0.5, modelError: { low: 0.57, high: 1.6, points: 7 } }, threads: 1 });
    expect(plan.pointCount).toBe(8);
    expect(text).toContain("the cost model predicted 7 timed points from the one before within ×0.57–×1.6 of its CPU; an estimate, not a bound)");
  });

  it("states the disk of each table the run will keep: the views asked for beside runs.parquet, the journal while it runs, no summaries in a shard", () => {
    const sweep = experiment({ repeats: 10, grid: { n: 20, d: 2, margin: [0.1, 0.2] } });
    const disk = (shard: Shard | null, tables: readonly RunTableName[]) => formatPlan(describePlan(sweep, shard), "t.json", "results/t", null, tables).split("\n").find((line) => line.startsWith("estimated disk"));
    // 20 runs: 34 KB of runs.jsonl, 12 KB of runs.csv, 3.4 KB of runs.parquet, 2 KB of journal; 2 grid points: 15.4 KB of summaries.
    expect(disk(null, ["csv", "jsonl", "parquet"])).toBe("estimated disk: about 65 KB of tables (runs.jsonl ~34 KB, runs.csv ~12 KB, runs.parquet ~4 KB, summary.json and summary.csv ~16 KB; runs.journal, ~2 KB, is the record while the sweep runs, removed once runs.parquet is written; --tables parquet keeps runs.parquet alone, ~170 bytes a run)");
    expect(disk(null, ["parquet"])).toBe("estimated disk: about 19 KB of tables (runs.parquet ~4 KB, summary.json and summary.csv ~16 KB; runs.journal, ~2 KB, is the record while the sweep runs, removed once runs.parquet is written)");
    expect(disk({ index: 1, count: 2 }, ["csv", "parquet"])).toMatch(/^estimated disk: about \d+ KB of tables \(runs\.csv ~\d+ KB, runs\.parquet ~\d+ KB; runs\.journal/);
  });

  it("times nothing too costly for a dry run, and says so; the work's upper bound is every run to maxEpochs, twice", () => {
    // n 5 000, d 500, margin 0.001: (R/γ)² = 10⁶ epochs of 2.5·10⁶ multiply-adds each, far past what a dry run times.
    const heavy = experiment({ repeats: 2, grid: { n: 5000, d: 500, margin: 0.001 } });
    const { described, calibration } = timedPlan(heavy);
    expect(calibration).toBeNull();
    expect(formatPlan(described, "h.json", "results/h", { calibration, threads: 2 })).toContain("estimated time: not timed (every grid point's runs are too costly to time in a dry run");
    expect(described.maxMultiplyAdds).toBe(2 * (5000 * 500 + 2 * 5000 * 501 * heavy.maxEpochs));
  });

  it("scales a point it did not time from the last one timed, by their estimated costs", () => {
    // 200 points: every 3rd is timed (200 / 64); the rest take a timed neighbour's time scaled by cost, so the sum is finite and positive.
    const many = experiment({ repeats: 1, grid: { n: 20, d: 2, margin: Array.from({ length: 200 }, (_, k) => 0.05 + k / 1000) } });
    const { calibration } = timedPlan(many, null, 200);
    expect(calibration!.timedRuns).toBeLessThanOrEqual(64);
    expect(calibration!.timedRuns).toBeLessThan(200);
    expect(Number.isFinite(calibration!.cpuSeconds) && calibration!.cpuSeconds > 0).toBe(true);
  });
});
