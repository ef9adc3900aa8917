import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { BATCHES_PER_THREAD, DEFAULT_BATCH_OPTIONS, TIMED_BATCH_COST } from "../../src/sweep/make-segments.js";
import { temporaryFolder } from "../helpers.js";

const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"];

function loaded(source: Record<string, unknown>): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "0".repeat(64) };
}

// 2^7 = 128 planted points and 4 structured ones (orthonormal without bias, hadamard with), 2 repeats:
// 264 runs.
const sweep = loaded({
  name: "determinism",
  seed: 7,
  repeats: 2,
  grid: [
    { n: [30, 60], d: [2, 8], margin: [0.05, 0.2], offset: [0, 0.2], eta: [0.5, 2], init: ["zero", "uniform:1"], order: ["cyclic", "shuffle"] },
    { generator: ["orthonormal", "hadamard"], n: [4, 16], bias: [true, false] },
  ],
});

describe("runExperiment", () => {
  it("writes byte-identical tables for 1, 2 and 8 threads, and from one invocation to the next", async () => {
    const outputs: Record<string, string>[] = [];
    for (const [threads, maxRuns] of [[1, undefined], [2, undefined], [8, 3], [2, 1]] as const) {
      const outDir = temporaryFolder();
      const report = await runExperiment(sweep, { threads, outDir, ...(maxRuns ? { batch: { maxRuns } } : {}) });
      expect(report.counts).toMatchObject({ runs: 264, errors: 0, violatingRuns: 0 });
      outputs.push(Object.fromEntries(TABLES.map((file) => [file, readFileSync(join(outDir, file), "utf8")])));
    }
    for (const output of outputs.slice(1)) expect(output).toEqual(outputs[0]);
  });

  it("cuts smaller batches under a run time limit, which a whole batch must keep", async () => {
    const outDir = temporaryFolder();
    const small = loaded({ name: "timed", seed: 3, repeats: 40, grid: [{ n: [20], d: [2], margin: [0.2] }] });
    await runExperiment(small, { threads: 1, outDir, runTimeoutSeconds: 60 });
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
    expect(manifest.options.batch.targetCost).toBe(TIMED_BATCH_COST);
    expect(TIMED_BATCH_COST).toBeLessThan(DEFAULT_BATCH_OPTIONS.targetCost);
  });

  it("writes runs in sweep order, one summary row per grid point, and a manifest", async () => {
    const outDir = temporaryFolder();
    const rssBefore = process.memoryUsage.rss() / 2 ** 20;
    const report = await runExperiment(sweep, { threads: 2, outDir });
    const peakAfter = process.resourceUsage().maxRSS / 1024;
    const runs = readFileSync(join(outDir, "runs.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    expect(runs.map((row) => row.run)).toEqual([...Array(264).keys()]);
    const summary = JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8"));
    expect(summary).toHaveLength(report.counts.points);
    expect(summary.map((row: { point: number }) => row.point)).toEqual([...Array(report.counts.points).keys()]);
    expect(readFileSync(join(outDir, "summary.csv"), "utf8").trimEnd().split("\n")).toHaveLength(report.counts.points + 1);
    expect(readFileSync(join(outDir, "runs.csv"), "utf8").trimEnd().split("\n")).toHaveLength(265);

    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
    expect(manifest.tool).toMatchObject({ name: "perceptron-lab", node: process.version });
    expect(manifest.experiment).toMatchObject({ path: "inline.json", name: "determinism", hash: "0".repeat(64) });
    expect(manifest.options.threads).toBe(2);
    // The default batches: at most 256 runs, and at least 16 a thread (264 runs on 2 threads: 9 runs).
    expect(manifest.options.batch).toEqual({ targetCost: DEFAULT_BATCH_OPTIONS.targetCost, maxRuns: Math.ceil(264 / (2 * BATCHES_PER_THREAD)) });
    expect(BATCHES_PER_THREAD).toBe(16);
    expect(manifest.counts).toEqual(report.counts);
    expect(manifest.skipped).toEqual(report.skipped);
    expect(typeof manifest.wallSeconds).toBe("number");
    // The process's peak: at least what it held before the sweep, at most its peak after (rounded, in MB).
    expect(manifest.peakRssMb).toBeGreaterThanOrEqual(Math.floor(rssBefore));
    expect(manifest.peakRssMb).toBeLessThanOrEqual(Math.ceil(peakAfter));
    expect(report.skipped).toEqual([
      { grid: 1, reason: "orthonormal: needs bias false", points: 2 },
      { grid: 1, reason: "hadamard: needs bias true", points: 2 },
    ]);
  });

  it("keeps going when runs throw: error rows in place, counted, every other run intact", async () => {
    // An init the schema would refuse, planted past validation, makes every run of that point throw.
    const valid = loaded({ name: "errors", repeats: 3, grid: { n: 20, d: 2, margin: 0.1, init: ["zero", "normal:1"] } });
    const grid = { ...valid.experiment.grids[0]!, init: ["zero", "bogus", "normal:1"] };
    const broken: LoadedExperiment = { ...valid, experiment: { ...valid.experiment, grids: [grid] } };
    const good = temporaryFolder();
    const bad = temporaryFolder();
    await runExperiment(valid, { threads: 2, outDir: good });
    const report = await runExperiment(broken, { threads: 2, outDir: bad });
    expect(report.counts).toMatchObject({ runs: 9, ok: 6, errors: 3 });
    expect(report.firstErrors.map((row) => row.run)).toEqual([3, 4, 5]);
    const rows = (folder: string) => readFileSync(join(folder, "runs.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line));
    const broke = rows(bad);
    expect(broke.slice(3, 6).map((row) => [row.status, row.error])).toEqual(
      Array(3).fill(["error", 'init "bogus" is not a valid init: use "zero", "normal:<scale>" or "uniform:<scale>" with scale > 0']),
    );
    // A record's check covers its run and point too (see recordCheck): set aside with them.
    const strip = ({ run, point, check, ...rest }: Record<string, unknown>) => rest;
    expect([...broke.slice(0, 3), ...broke.slice(6)].map(strip)).toEqual(rows(good).map(strip));
    const summary = JSON.parse(readFileSync(join(bad, "summary.json"), "utf8"));
    expect(summary[1]).toMatchObject({ runs: 3, converged: 0, errors: 3, updates: { median: null } });
  });

  it("records every planned run of data beyond float64's squares, as error rows that say so", async () => {
    // Radius and margin above ~1.34e154 made the cost estimate Infinity/Infinity = NaN: no batch was ever
    // sent, and the sweep said complete with 0 of 4 runs recorded.
    const huge = loaded({ name: "huge", repeats: 2, grid: { n: 20, d: 2, radius: 1e200, margin: [1e199, 2e199] } });
    const out = temporaryFolder();
    const report = await runExperiment(huge, { threads: 1, outDir: out });
    expect(report.counts).toMatchObject({ runs: 4, recorded: 4, errors: 4 });
    expect(report.firstErrors[0]!.error).toContain("float64 overflow");
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).status).toBe("complete");
  });

  it("refuses a result folder it cannot create", async () => {
    const file = join(temporaryFolder(), "a-file");
    writeFileSync(file, "");
    await expect(runExperiment(sweep, { threads: 1, outDir: join(file, "out") })).rejects.toThrow(
      new InputError(`${join(file, "out")}: cannot create the result folder (ENOTDIR)`),
    );
  });

  it("meets Novikoff's bound exactly on the structured families", async () => {
    const outDir = temporaryFolder();
    await runExperiment(loaded({ name: "worst", repeats: 3, grid: [{ generator: "orthonormal", n: [3, 10] }, { generator: "hadamard", n: [4, 32], order: "shuffle" }] }), {
      threads: 2,
      outDir,
    });
    const summary = JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8"));
    for (const row of summary) {
      expect(row.updates.median).toBe(row.n);
      expect(row.plantedNovikoffRatio).toEqual({ mean: 1, sd: 0, min: 1, p10: 1, p25: 1, median: 1, p75: 1, p90: 1, max: 1 });
    }
  });
  it("refuses a thread count that is no whole number from 1 to 256, from the library too (NaN was taken)", async () => {
    for (const threads of [Number.NaN, 0, 1.5, 257]) {
      await expect(runExperiment(sweep, { threads, outDir: temporaryFolder() })).rejects.toThrow(new InputError(`threads: ${threads} must be a whole number from 1 to 256`));
    }
  });
});
