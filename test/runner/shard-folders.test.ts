import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { compareResults } from "../../src/compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule } from "../../src/compare/fail-rule.js";
import { experimentFromObject } from "../../src/experiment/experiment-from-object.js";
import { writeReport } from "../../src/report/write-report.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";

// compare, report, dataset and rerun on the folders that run --shard and merge write.
// Without the max-margin separator (the golden tables hold its columns): these tests are of files and folders.
const loaded = experimentFromObject({ name: "sharded", seed: 5, repeats: 3, optimal: false, grid: { n: [20, 60], d: [2, 5], margin: [0.05, 0.2], order: ["cyclic", "shuffle"] } });
const folder = temporaryFolder();
const shards = [1, 2, 3].map((index) => join(folder, `shard-${index}`));
const merged = join(folder, "merged");
const RULES = DEFAULT_FAIL_RULES.map((rule) => parseFailRule(rule));

beforeAll(async () => {
  for (const [k, outDir] of shards.entries()) await runExperiment(loaded, { outDir, threads: 1, shard: { index: k + 1, count: 3 } });
  await mergeShards(merged, shards);
}, 60_000);

describe("a shard's folder", () => {
  it("is cut into batches by its own runs, so that an interruption stops it part way (not only the sweep's few batches, all in flight)", async () => {
    // 2000 runs; shard 1 of 8 holds about 250. Cut from the sweep's count, its batches were 125 runs: two, in
    // flight from the start, and an abort after the first run let it complete.
    const sweep = experimentFromObject({ name: "cut", seed: 2, repeats: 200, optimal: false, grid: { n: 20, d: 2, margin: [0.1, 0.12, 0.14, 0.16, 0.18, 0.2, 0.22, 0.24, 0.26, 0.28] } });
    const controller = new AbortController();
    const outDir = join(folder, "cut-shard");
    const report = await runExperiment(sweep, { outDir, threads: 1, shard: { index: 1, count: 8 }, signal: controller.signal, onProgress: (done) => done > 0 && controller.abort() });
    expect(report.outcome).toBe("interrupted");
    expect(report.counts.recorded).toBeLessThan(report.counts.runs / 2);
  });

  it("summarises its own runs: shard 1/1 to the whole sweep's summary.json, and n shards counting every run once", async () => {
    const only = join(folder, "shard-1-of-1");
    await runExperiment(loaded, { outDir: only, threads: 1, shard: { index: 1, count: 1 } });
    expect(readResultFolder(only).summary).toEqual(readResultFolder(merged).summary);
    const rows = shards.flatMap((shard) => readResultFolder(shard).summary);
    expect(rows.reduce((sum, row) => sum + row.runs, 0)).toBe(16 * 3);
    for (const shard of shards) {
      // each row is over the shard's runs of its point, in the shard's own records
      const counts = new Map<number, number>();
      for (const run of readResultFolder(shard).runs()) counts.set(run.point, (counts.get(run.point) ?? 0) + 1);
      expect(readResultFolder(shard).summary.map((row) => [row.point, row.runs])).toEqual([...counts]);
    }
  });

  it("compares with the same shard of another sweep, and refuses another shard or a whole sweep", async () => {
    const again = join(folder, "again-1");
    await runExperiment(loaded, { outDir: again, threads: 1, shard: { index: 1, count: 3 } });
    const report = compareResults(shards[0]!, again, RULES);
    expect(report).toMatchObject({ result: "pass", matchedPoints: readResultFolder(shards[0]!).summary.length });
    expect(() => compareResults(shards[0]!, shards[1]!, RULES)).toThrow(
      `${shards[0]} holds shard 1/3, ${shards[1]} shard 2/3: compare like with like (the same shard of each sweep, or merge the shards first)`,
    );
    expect(() => compareResults(shards[0]!, merged, RULES)).toThrow(`${shards[0]} holds shard 1/3, ${merged} the whole sweep`);
    expect(compareResults(merged, merged, RULES).result).toBe("pass");
  });

  it("gets a report, titled with its shard", async () => {
    const page = await writeReport(shards[1]!);
    const html = readFileSync(page, "utf8");
    expect(html).toContain("perceptron-lab: sharded (shard 2/3)");
    expect(html).toContain("Shard 2 of 3: every summary is over this shard's runs of its grid point");
  });

  it("reruns as that shard, to the same runs.csv, runs.jsonl and runs.parquet", async () => {
    const rerun = await rerunExperiment(shards[2]!, join(folder, "rerun-3"), 2);
    expect(rerun).toMatchObject({ identical: true, tables: ["runs.csv", "runs.jsonl", "runs.parquet"] });
    const wholeRerun = await rerunExperiment(merged, join(folder, "rerun-merged"), 2);
    expect(wholeRerun).toMatchObject({ identical: true, tables: ["runs.csv", "runs.jsonl", "summary.csv", "summary.json", "runs.parquet"] });
  });

  it("gives `dataset` the experiment its manifest records (a shard's, a merged one's)", () => {
    const cli = (args: string[]) => spawnSync(process.execPath, ["dist/cli/perceptron-lab.mjs", ...args], { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
    const row = readFileSync(join(shards[1]!, "runs.jsonl"), "utf8").split("\n")[0]!;
    const run = String(JSON.parse(row).run);
    const fromShard = cli(["dataset", shards[1]!, "--run", run]);
    const fromMerged = cli(["dataset", merged, "--run", run]);
    expect(fromShard.status).toBe(0);
    expect(fromShard.stdout).toBe(fromMerged.stdout);
    expect(fromShard.stdout.split("\n")[0]).toBe("x1,x2,label");
  });
});
