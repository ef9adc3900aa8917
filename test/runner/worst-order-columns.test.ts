import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { writeReport } from "../../src/report/write-report.js";
import { describe, expect, it } from "vitest";
import { WORST_ORDER_BOUND_COLUMNS, WORST_ORDER_RATIO_COLUMNS } from "../../src/bounds/bound-choice.js";
import { experimentFromObject } from "../../src/experiment/experiment-from-object.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { RUN_COLUMNS } from "../../src/run/run-columns.js";
import { resultTables, temporaryFolder } from "../helpers.js";

const STUDY = {
  name: "worst",
  seed: 3,
  repeats: 3,
  bounds: ["default", "worstOrder"],
  grid: { generator: "planted", n: 8, d: 3, margin: [0.1, 0.3], radius: 1, offset: 0, bias: true, eta: 1, init: "zero", order: ["cyclic", "most-violated", "random-mistake"] },
};

describe("the worst order's columns (bounds: worstOrder; docs/theory.md, The worst order)", () => {
  it("follow the tool's own in every table, the same at 1 and 2 threads and through shards and merge, with updates ≤ W* ≤ every bound", async () => {
    const folder = temporaryFolder();
    const one = join(folder, "one");
    const report = await runExperiment(experimentFromObject(STUDY), { outDir: one, threads: 1 });
    expect(report.counts).toMatchObject({ runs: 18, errors: 0, violatingRuns: 0 });
    await runExperiment(experimentFromObject(STUDY), { outDir: join(folder, "two"), threads: 2 });
    expect(resultTables(join(folder, "two"))).toEqual(resultTables(one));
    const tables = resultTables(one);
    const header = tables["runs.csv"]!.split("\n")[0]!.split(",");
    expect(header).toEqual([...RUN_COLUMNS, ...WORST_ORDER_BOUND_COLUMNS, ...WORST_ORDER_RATIO_COLUMNS]);
    const rows = tables["runs.jsonl"]!.trim().split("\n").map((line) => JSON.parse(line));
    for (const row of rows) {
      // n 8: the search completes within the default budget.
      expect(row.worstOrderLower).toBe(row.worstOrderUpper);
      expect(row.updates).toBeLessThanOrEqual(row.worstOrderLower);
      expect(row.worstOrderLower).toBeLessThanOrEqual(Math.floor(row.bestBound));
      expect(row.worstOrderLuck).toBeCloseTo(row.updates / row.worstOrderLower, 12);
      expect(row.plantedNovikoffWorstRatio).toBeCloseTo(row.worstOrderLower / row.plantedNovikoffBound, 12);
      expect(row.bestWorstRatio).toBeLessThanOrEqual(1);
    }
    // W* is the data set's, whatever the order of the run: the three orders of a data set share it.
    const byData = new Map<string, Set<number>>();
    for (const row of rows) {
      const key = `${row.margin} ${row.repeat}`;
      byData.set(key, (byData.get(key) ?? new Set()).add(row.worstOrderLower));
    }
    for (const values of byData.values()) expect(values.size).toBe(1);
    // The report draws the sandwich and W*/bound against the margin, from these columns.
    await writeReport(one);
    for (const plot of ["worst-order", "worst-ratio-vs-margin"]) expect(existsSync(join(one, "plots", `${plot}.svg`)), plot).toBe(true);
    const sandwich = JSON.parse(readFileSync(join(one, "plots", "worst-order.vl.json"), "utf8"));
    const drawn = sandwich.data.values as { point: number; quantity: string; value: number }[];
    const summary = JSON.parse(tables["summary.json"]!) as { point: number; worstOrderLower: { median: number } }[];
    for (const row of summary) expect(drawn.find((value) => value.point === row.point && value.quantity.startsWith("W*"))?.value).toBe(row.worstOrderLower.median);

    const shards = [join(folder, "s1"), join(folder, "s2")];
    for (const [k, outDir] of shards.entries()) await runExperiment(experimentFromObject(STUDY), { outDir, threads: 1, shard: { index: k + 1, count: 2 }, parquet: true });
    await mergeShards(join(folder, "merged"), shards, { parquet: true });
    expect(resultTables(join(folder, "merged"))).toEqual(tables);
    expect([...readResultFolder(join(folder, "merged")).runs()].map((row) => JSON.stringify(row))).toEqual(rows.map(({ check, ...row }) => JSON.stringify(row)));
  });

  it("are not in a sweep that does not list worstOrder, whose tables keep their columns (and whose report has no such plot)", async () => {
    const outDir = temporaryFolder();
    await runExperiment(experimentFromObject({ ...STUDY, bounds: "default", repeats: 1 }), { outDir, threads: 1 });
    expect(resultTables(outDir)["runs.csv"]!.split("\n")[0]).toBe(RUN_COLUMNS.join(","));
    await writeReport(outDir);
    expect(existsSync(join(outDir, "plots", "worst-order.svg"))).toBe(false);
  });

  it("take the experiment's worstOrderBudget: a budget of 1 leaves brackets, each with lower ≤ upper", async () => {
    const outDir = temporaryFolder();
    await runExperiment(experimentFromObject({ ...STUDY, repeats: 2, worstOrderBudget: 1, grid: { ...STUDY.grid, n: 14, margin: 0.05 } }), { outDir, threads: 1 });
    const rows = resultTables(outDir)["runs.jsonl"]!.trim().split("\n").map((line) => JSON.parse(line));
    expect(rows.every((row) => row.worstOrderNodes <= 1 && row.worstOrderLower <= row.worstOrderUpper)).toBe(true);
    expect(rows.some((row) => row.worstOrderLower < row.worstOrderUpper && row.worstOrderLuck === null && row.bestWorstRatio === null)).toBe(true);
  });
});
