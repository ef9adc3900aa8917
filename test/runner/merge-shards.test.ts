import { spawnSync } from "node:child_process";
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { basename, join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseShard } from "../../src/cli/shared-options.js";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { estimateRunCost, SPLIT_MODEL, splitCostOf } from "../../src/sweep/estimate-run-cost.js";
import { planSweep, type SweepPlan } from "../../src/sweep/plan-sweep.js";
import type { SweepPoint } from "../../src/sweep/run-batch.js";
import { BLOCKS_PER_SHARD, shardRepeats, shardRuns } from "../../src/sweep/shard.js";
import { recordedRows, resultTables, temporaryFolder, writeRecordedRuns } from "../helpers.js";


function loaded(source: Record<string, unknown>, hash: string): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash };
}

// Without the max-margin separator (the golden tables hold its columns): these tests are of files and folders.
const source = { name: "shards", repeats: 5, optimal: false, grid: [{ n: [20, 80], d: [2, 10], margin: [0.02, 0.1, 0.3], order: ["cyclic", "shuffle"] }, { generator: "hadamard", n: [8, 64] }] };
const sweep = loaded(source, "c".repeat(64));

describe("shards", () => {
  it("split the sweep by expected cost, every run in exactly one shard", () => {
    const plan = planSweep(sweep.experiment);
    const cost = (point: SweepPoint) => estimateRunCost(point.parameters, plan.settings.maxEpochs);
    for (const count of [1, 2, 4, 7]) {
      const shards = Array.from({ length: count }, (_, k) => [...shardRepeats(plan, { index: k + 1, count }, cost)]);
      expect(shards.flat().map(({ point, repeat }) => point.firstRun + repeat).sort((a, b) => a - b)).toEqual([...Array(plan.runCount).keys()]);
      const costs = shards.map((runs) => runs.reduce((sum, { point }) => sum + cost(point), 0));
      const heaviest = Math.max(...[...plan.points()].map(cost));
      // Blocks of equal cost, BLOCKS_PER_SHARD a shard: no shard exceeds another by more than 2 × BLOCKS_PER_SHARD heaviest runs.
      expect(Math.max(...costs) - Math.min(...costs)).toBeLessThanOrEqual(2 * BLOCKS_PER_SHARD * heaviest);
    }
  });

  it("split as the blocks say, run by run: each run to the block its cost's midpoint falls in, block b to shard b mod count + 1", () => {
    // Synthetic points: costs with many ties and fractions whose sums round, one point heavier than a block.
    const costs = Array.from({ length: 300 }, (_, k) => [1, 1, 1, 0.1, 0.2, 0.3, 7, 1e-3, 900][(k * 7 + (k >> 4)) % 9]!);
    for (const repeats of [1, 3, 50]) {
      const points = costs.map((_, k) => ({ grid: 0, point: k, firstRun: k * repeats, parameters: {} }) as unknown as SweepPoint);
      const plan = { repeats, runCount: points.length * repeats, points: () => points.values() } as unknown as SweepPlan;
      const costOf = (point: SweepPoint) => costs[point.point]!;
      for (const count of [1, 2, 7, 64]) {
        // The oracle: every run walked in order, its block from its midpoint.
        const total = costs.reduce((sum, cost) => sum + cost * repeats, 0);
        const owner: number[] = [];
        let start = 0;
        for (const cost of costs) {
          for (let r = 0; r < repeats; r++) owner.push((Math.min(count * BLOCKS_PER_SHARD - 1, Math.floor(((start + (r + 0.5) * cost) / total) * count * BLOCKS_PER_SHARD)) % count) + 1);
          start += cost * repeats;
        }
        for (const index of [1, Math.ceil(count / 2), count]) {
          const runs = [...shardRepeats(plan, { index, count }, costOf)].map(({ point, repeat }) => point.firstRun + repeat);
          expect(runs).toEqual(owner.flatMap((shard, run) => (shard === index ? [run] : [])));
          // shardRuns keeps the same runs as ranges from one walk; beyond its cap, none kept, the count still right.
          const kept = shardRuns(plan, { index, count }, costOf);
          expect(kept.count).toBe(runs.length);
          expect(kept.ranges!.flatMap(({ point, from, to }) => Array.from({ length: to - from }, (_, k) => point.firstRun + from + k))).toEqual(runs);
          expect(shardRuns(plan, { index, count }, costOf, 2)).toEqual({ count: runs.length, ranges: kept.ranges!.length <= 2 ? kept.ranges : null });
        }
      }
    }
  });

  it("plan a shard from the points and its own runs: 10⁸ runs in 10⁴ shards, each run in one", () => {
    // 100 points of 10⁶ repeats: walking every run for every shard would be 10¹² steps.
    const points = Array.from({ length: 100 }, (_, k) => ({ grid: 0, point: k, firstRun: k * 1e6, parameters: {} }) as unknown as SweepPoint);
    const plan = { repeats: 1e6, runCount: 1e8, points: () => points.values() } as unknown as SweepPlan;
    const costOf = (point: SweepPoint) => 1 + (point.point % 10);
    const count = 10_000;
    let runs = 0;
    for (let index = 1; index <= count; index++) {
      const own = shardRuns(plan, { index, count }, costOf);
      runs += own.count;
      // In sweep order, and a handful of ranges (BLOCKS_PER_SHARD blocks, split where a block crosses points).
      const starts = own.ranges!.map(({ point, from }) => point.firstRun + from);
      expect(starts).toEqual([...starts].sort((a, b) => a - b));
      expect(own.ranges!.length).toBeLessThanOrEqual(2 * BLOCKS_PER_SHARD);
    }
    expect(runs).toBe(1e8);
  });

  it("merge into tables byte-identical to an unsharded run", async () => {
    const full = temporaryFolder();
    await runExperiment(sweep, { threads: 2, outDir: full });
    const folder = temporaryFolder();
    const dirs = [1, 2, 3].map((index) => join(folder, `shard-${index}`));
    for (const [k, dir] of dirs.entries()) await runExperiment(sweep, { threads: 1, outDir: dir, shard: { index: k + 1, count: 3 } });
    const report = await mergeShards(join(folder, "merged"), [dirs[2]!, dirs[0]!, dirs[1]!]);
    expect(report.counts).toMatchObject({ runs: 130, recorded: 130, errors: 0 });
    expect(resultTables(join(folder, "merged"))).toEqual(resultTables(full));
    const manifest = JSON.parse(readFileSync(join(folder, "merged", "manifest.json"), "utf8"));
    expect(manifest).toMatchObject({ status: "complete", shard: null, mergedFrom: dirs });

    // Refusals, each naming what is wrong.
    await expect(mergeShards(join(folder, "m1"), [dirs[0]!, dirs[2]!])).rejects.toThrow(new InputError("shard 2/3 missing"));
    await expect(mergeShards(join(folder, "m2"), [dirs[0]!, dirs[0]!, dirs[1]!])).rejects.toThrow(new InputError(`${dirs[0]} and ${dirs[0]} are both shard 1/3`));
    await expect(mergeShards(join(folder, "merged"), dirs)).rejects.toThrow(new InputError(`${join(folder, "merged")} already holds results: { overwrite: true } replaces them`));
    await expect(mergeShards(join(folder, "m3"), [full])).rejects.toThrow(new InputError(`${full} holds a whole sweep, not a shard`));
    // An output folder that is a shard, lies in one or holds one: refused before anything is written (--overwrite would clear the shard).
    const shardRuns = readFileSync(join(dirs[0]!, "runs.parquet"));
    await expect(mergeShards(dirs[0]!, dirs, { overwrite: true })).rejects.toThrow(new InputError(`${dirs[0]}: is the shard folder ${dirs[0]}; merge writes its own folder (and --overwrite clears it): choose another`));
    await expect(mergeShards(join(dirs[1]!, "inside"), dirs)).rejects.toThrow(`is inside the shard folder ${dirs[1]}`);
    await expect(mergeShards(folder, dirs, { overwrite: true })).rejects.toThrow(`${folder}: holds the shard folder ${dirs[0]}`);
    expect(readFileSync(join(dirs[0]!, "runs.parquet")).equals(shardRuns)).toBe(true);
    // A record of another seed spliced into a shard, its runs.parquet recorded anew so that its digest holds: refused by what it is, not by its digest.
    const spliced = join(folder, "spliced");
    cpSync(dirs[1]!, spliced, { recursive: true });
    const records = recordedRows(spliced);
    const row = records[0]!;
    writeRecordedRuns(spliced, [{ ...row, seed: row.seed + 1 }, ...records.slice(1)]);
    await expect(mergeShards(join(folder, "m-spliced"), [dirs[0]!, spliced, dirs[2]!])).rejects.toThrow(
      new InputError(`${spliced}: run ${row.run}'s record has seed ${row.seed + 1} where the sweep's run ${row.run} has ${row.seed}: a record of another sweep or seed is in this shard; run the shard again`),
    );
    const other = join(folder, "other");
    await runExperiment(loaded({ ...source, seed: 9 }, "d".repeat(64)), { threads: 1, outDir: other, shard: { index: 2, count: 3 } });
    await expect(mergeShards(join(folder, "m4"), [dirs[0]!, other, dirs[2]!])).rejects.toThrow(
      `${other} is a shard of a different experiment file than ${dirs[0]} (sha256 dddddddddddd… against cccccccccccc…)`,
    );
    // A shard written by another version of the tool is refused unless asked for, and then named in a note.
    const manifestPath = join(dirs[1]!, "manifest.json");
    const original = readFileSync(manifestPath, "utf8");
    const written = JSON.parse(original);
    writeFileSync(manifestPath, JSON.stringify({ ...written, tool: { ...written.tool, version: "0.3.0" } }));
    await expect(mergeShards(join(folder, "m6"), dirs)).rejects.toThrow(
      new InputError(`${dirs[1]} was written by perceptron-lab 0.3.0, ${dirs[0]} by ${written.tool.version}: a version may compute a column differently; rerun the shards with one version, or pass --allow-mixed-versions`),
    );
    const notes: string[] = [];
    await mergeShards(join(folder, "m6"), dirs, { allowMixedVersions: true, onNote: (text) => notes.push(text) });
    expect(resultTables(join(folder, "m6"))).toEqual(resultTables(full));
    expect(notes).toEqual([`${dirs[1]} was written by perceptron-lab 0.3.0, ${dirs[0]} by ${written.tool.version}: merged as asked (--allow-mixed-versions)`]);
    writeFileSync(manifestPath, original);
    writeRecordedRuns(dirs[1]!, recordedRows(dirs[1]!).slice(0, 5));
    // The refusal names the shard the split gives the first missing run, and its folder (58: it named neither).
    const cut = await mergeShards(join(folder, "m5"), dirs).catch((error: unknown) => error as Error);
    expect(cut).toBeInstanceOf(InputError);
    expect((cut as Error).message).toMatch(/^run \d+ of 130 is in no shard: the split gives it to shard 2\/\d+ \(.+\), whose runs end before it: that shard folder is incomplete or cut short \(resume it with run --shard 2\/\d+ --resume, or run it again\)$/);
    expect((cut as Error).message).toContain(basename(dirs[1]!));
    // A refusal part way leaves nothing: no tables in a new folder, and an old folder's results as they were.
    expect(readdirSync(join(folder, "m5"))).toEqual([]);
    const before = resultTables(join(folder, "merged"));
    const manifestBefore = readFileSync(join(folder, "merged", "manifest.json"), "utf8");
    await expect(mergeShards(join(folder, "merged"), dirs, { overwrite: true })).rejects.toThrow(/is in no shard/);
    expect(resultTables(join(folder, "merged"))).toEqual(before);
    expect(readFileSync(join(folder, "merged", "manifest.json"), "utf8")).toBe(manifestBefore);
    expect(readdirSync(join(folder, "merged")).filter((entry) => entry.startsWith("."))).toEqual([]);
  });

  it("merge more shards than the process may open files", async () => {
    // 300 shards of a 130-run sweep (many of them empty), each what `run --shard k/300` writes: the rows of
    // its runs (the unsharded run's, which are the same) in its runs.parquet, and a manifest that names the
    // shard and records the file. The merge runs under `ulimit -n 128`: Node itself needs about 100 descriptors to
    // load its modules, so a merge that held every shard's file open would fail with EMFILE.
    const full = temporaryFolder();
    await runExperiment(sweep, { threads: 2, outDir: full });
    const folder = temporaryFolder();
    const count = 300;
    const first = join(folder, "shard-1");
    await runExperiment(sweep, { threads: 1, outDir: first, shard: { index: 1, count } });
    const manifest = JSON.parse(readFileSync(join(first, "manifest.json"), "utf8"));
    const records = recordedRows(full);
    const plan = planSweep(sweep.experiment);
    const dirs = [first];
    for (let index = 2; index <= count; index++) {
      const dir = join(folder, `shard-${index}`);
      mkdirSync(dir);
      const runs = [...shardRepeats(plan, { index, count }, splitCostOf(plan.settings.maxEpochs, SPLIT_MODEL))].map(({ point, repeat }) => point.firstRun + repeat);
      writeFileSync(join(dir, "manifest.json"), JSON.stringify({ ...manifest, shard: { index, count, split: SPLIT_MODEL } }));
      writeRecordedRuns(dir, runs.map((run) => records[run]!));
      dirs.push(dir);
    }
    const out = join(folder, "merged");
    const script = `ulimit -n 128 && exec "$0" "$@"`;
    const result = spawnSync("sh", ["-c", script, process.execPath, join(process.cwd(), "dist/cli/perceptron-lab.mjs"), "merge", out, ...dirs, "--quiet", "--no-report"], { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
    expect(result.stderr).toBe("");
    expect(result.status).toBe(0);
    expect(resultTables(out)).toEqual(resultTables(full));
    expect(existsSync(join(out, "manifest.json"))).toBe(true);
  });

  it("read shards block by block, and refuse a run in two shards or one the sweep does not have", async () => {
    const folder = temporaryFolder();
    const dirs = [1, 2, 3].map((index) => join(folder, `shard-${index}`));
    for (const [k, dir] of dirs.entries()) await runExperiment(sweep, { threads: 1, outDir: dir, shard: { index: k + 1, count: 3 } });
    const whole = temporaryFolder();
    await runExperiment(sweep, { threads: 1, outDir: whole });
    await mergeShards(join(folder, "merged"), dirs);
    expect(resultTables(join(folder, "merged"))).toEqual(resultTables(whole));
    const original = recordedRows(dirs[1]!);
    // A record of shard 1 (valid, recorded) also in shard 2, in run order: met in shard 2's block, or left after its last.
    const borrowed = recordedRows(dirs[0]!).find((row) => row.run > original[0]!.run)!;
    writeRecordedRuns(dirs[1]!, [...original, borrowed].sort((a, b) => a.run - b.run));
    await expect(mergeShards(join(folder, "m1"), dirs)).rejects.toThrow(new InputError(`run ${borrowed.run} is in two shards (again in ${dirs[1]})`));
    // Shard 3 holds the sweep's last block: a record of it after shard 2's last is found once shard 2's blocks are read.
    const later = recordedRows(dirs[2]!).find((row) => row.run > original.at(-1)!.run)!;
    writeRecordedRuns(dirs[1]!, [...original, later]);
    await expect(mergeShards(join(folder, "m2"), dirs)).rejects.toThrow(new InputError(`run ${later.run} is in two shards (again in ${dirs[1]})`));
    // A run past the sweep's last (a shard of a larger sweep's records, recorded anew).
    writeRecordedRuns(dirs[1]!, [...original, { ...original.at(-1)!, run: 10_000 }]);
    await expect(mergeShards(join(folder, "m3"), dirs)).rejects.toThrow(new InputError(`${dirs[1]} holds run 10000, but the sweep has 130 runs`));
  });

  it("cut a new shard by split model 2 and record it; resume and merge shards of 0.14 (no model recorded: 1) as they were cut; refuse shards cut by two models", async () => {
    const full = temporaryFolder();
    await runExperiment(sweep, { threads: 2, outDir: full });
    const folder = temporaryFolder();
    const modern = join(folder, "modern-1");
    await runExperiment(sweep, { threads: 1, outDir: modern, shard: { index: 1, count: 3 } });
    expect(JSON.parse(readFileSync(join(modern, "manifest.json"), "utf8")).shard).toEqual({ index: 1, count: 3, split: 2 });
    // Shards as 0.14 wrote them: cut by model 1, their manifests naming no model.
    const old = [1, 2, 3].map((index) => join(folder, `old-${index}`));
    const as014 = (dir: string, status: string) => {
      const path = join(dir, "manifest.json");
      const manifest = JSON.parse(readFileSync(path, "utf8"));
      writeFileSync(path, JSON.stringify({ ...manifest, status, shard: { index: manifest.shard.index, count: manifest.shard.count } }));
    };
    for (const [k, dir] of old.entries()) {
      await runExperiment(sweep, { threads: 1, outDir: dir, shard: { index: k + 1, count: 3, split: 1 } });
      as014(dir, "complete");
    }
    // The two models cut this sweep differently (else the test would prove nothing).
    const plan = planSweep(sweep.experiment);
    const runsOf = (model: 1 | 2) => [...shardRepeats(plan, { index: 1, count: 3 }, splitCostOf(plan.settings.maxEpochs, model))].map(({ point, repeat }) => point.firstRun + repeat);
    expect(runsOf(1)).not.toEqual(runsOf(2));
    // An interrupted 0.14 shard resumes as it was cut, its recorded runs reused.
    as014(old[1]!, "interrupted");
    await runExperiment(sweep, { threads: 1, outDir: old[1]!, resume: true, shard: { index: 2, count: 3 } });
    expect(JSON.parse(readFileSync(join(old[1]!, "manifest.json"), "utf8")).shard).toEqual({ index: 2, count: 3, split: 1 });
    as014(old[1]!, "complete");
    await mergeShards(join(folder, "merged-old"), old);
    expect(resultTables(join(folder, "merged-old"))).toEqual(resultTables(full));
    // And a 0.14 shard reruns as it was cut: the same runs, identical tables.
    expect((await rerunExperiment(old[0]!, join(folder, "rerun-old"), 1)).identical).toBe(true);
    await expect(mergeShards(join(folder, "mixed"), [modern, old[1]!, old[2]!])).rejects.toThrow(
      new InputError(`${old[1]} was cut by split model 1, ${modern} by split model 2 (shards run by perceptron-lab 0.14 and 0.15): the shards of one sweep must be cut alike; rerun them with one version`),
    );
  });

  it("refuse to resume a folder as another shard", async () => {
    const dir = temporaryFolder();
    await runExperiment(sweep, { threads: 1, outDir: dir, shard: { index: 1, count: 2 } });
    await expect(runExperiment(sweep, { threads: 1, outDir: dir, resume: true, shard: { index: 2, count: 2 } })).rejects.toThrow(
      `${dir} holds shard 1/2, not shard 2/2: resume it as it was, or { overwrite: true }`,
    );
  });
});

describe("parseShard", () => {
  it("reads i/n from 1, and auto from Slurm or Kubernetes job arrays", () => {
    expect(parseShard("2/5", {})).toEqual({ index: 2, count: 5 });
    expect(parseShard("auto", { SLURM_ARRAY_TASK_ID: "3", SLURM_ARRAY_TASK_MIN: "1", SLURM_ARRAY_TASK_COUNT: "8" })).toEqual({ index: 3, count: 8 });
    expect(parseShard("auto", { SLURM_ARRAY_TASK_ID: "0", SLURM_ARRAY_TASK_COUNT: "4" })).toEqual({ index: 1, count: 4 });
    expect(parseShard("auto/6", { JOB_COMPLETION_INDEX: "5" })).toEqual({ index: 6, count: 6 });
  });

  it("names what is wrong", () => {
    expect(() => parseShard("3/2", {})).toThrow("--shard 3/2: the shard must be from 1 to 2 (got 3)");
    expect(() => parseShard("0/2", {})).toThrow("--shard 0/2: the shard must be from 1 to 2 (got 0)");
    expect(() => parseShard("1/0", {})).toThrow("--shard 1/0: the number of shards must be a whole number from 1 (got 0)");
    expect(() => parseShard("half", {})).toThrow("--shard half: use i/n (i from 1 to n), auto or auto/<n>");
    expect(() => parseShard("auto", {})).toThrow("--shard auto: found neither SLURM_ARRAY_TASK_ID (Slurm job array) nor JOB_COMPLETION_INDEX (Kubernetes Indexed Job) in the environment");
    expect(() => parseShard("auto", { JOB_COMPLETION_INDEX: "0" })).toThrow("--shard auto: a Kubernetes Indexed Job needs the number of shards, as --shard auto/<completions>");
    expect(() => parseShard("auto/4", { JOB_COMPLETION_INDEX: "4" })).toThrow("--shard auto (JOB_COMPLETION_INDEX 4): the shard must be from 1 to 4 (got 5)");
  });
});
