import { execFileSync } from "node:child_process";
import { createHash } from "node:crypto";
import { copyFileSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataCsv } from "../../src/experiment/read-data-csv.js";
import { experimentFromObject } from "../../src/experiment/experiment-from-object.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { parseInit } from "../../src/perceptron/initial-weights.js";
import { fitDataSet } from "../../src/run/fit-data-set.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";

const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"];
const IRIS = "test/fixtures/iris-setosa.csv";

/** An experiment file in its own folder, its data in a subfolder, named relative to the file. */
function studyFolder(grid: Record<string, unknown> = {}, extra: Record<string, unknown> = {}): { folder: string; file: string } {
  const folder = temporaryFolder();
  mkdirSync(join(folder, "data"));
  copyFileSync(IRIS, join(folder, "data", "iris.csv"));
  writeFileSync(join(folder, "data", "flip.csv"), "x,label\n1,1\n2,1\n-1,-1\n-3,-1\n");
  const file = join(folder, "study.json");
  const source = {
    name: "study",
    seed: 3,
    repeats: 4,
    grid: { generator: "csv", data: ["data/iris.csv", "data/flip.csv"], eta: [0.5, 1], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"], ...grid },
    ...extra,
  };
  writeFileSync(file, JSON.stringify(source));
  return { folder, file };
}

const rowsOf = (folder: string) => readFileSync(join(folder, "runs.jsonl"), "utf8").trim().split("\n").map((line) => JSON.parse(line));

describe("the csv generator: sweeps over data files", () => {
  it("runs every η, ŵ(0), order and repeat over each file, as fit would, and records each file's SHA-256", async () => {
    const { folder, file } = studyFolder();
    const outDir = join(folder, "out");
    // from another working folder: the data paths are relative to the experiment file
    const report = await runExperiment(loadExperiment(file), { outDir, threads: 2 });
    expect(report.counts).toMatchObject({ runs: 2 * 2 * 2 * 2 * 4, errors: 0, violatingRuns: 0 });
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8"));
    expect(manifest.resolved.dataFiles["data/iris.csv"]).toEqual({
      path: join(folder, "data", "iris.csv"),
      sha256: createHash("sha256").update(readFileSync(IRIS)).digest("hex"),
      n: 150,
      d: 4,
    });
    const rows = rowsOf(outDir);
    expect(new Set(rows.map((row) => row.data))).toEqual(new Set(["data/iris.csv", "data/flip.csv"]));
    for (const row of rows) expect(row).toMatchObject({ generator: "csv", margin: null, plantedMargin: null, converged: true, separable: true });
    // docs/theory.md's reference run on this file: cyclic, ŵ(0) = 0, η = 1, bias: 5 updates in 4 epochs
    expect(rows.find((row) => row.data === "data/iris.csv" && row.init === "zero" && row.order === "cyclic" && row.eta === 1)).toMatchObject({ updates: 5, epochs: 4 });
    // each repeat its own ŵ(0) draw and permutations (its own seed), the same data
    const repeats = rows.filter((row) => row.data === "data/iris.csv" && row.init === "normal:1" && row.order === "shuffle" && row.eta === 1);
    expect(new Set(repeats.map((row) => row.seed)).size).toBe(4);
    // every row is what fit gives on the file with the row's seed
    const iris = await readDataCsv(IRIS);
    for (const row of rows.filter((r) => r.data === "data/iris.csv").slice(0, 16)) {
      const fit = fitDataSet(iris, { bias: row.bias, eta: row.eta, init: parseInit(row.init) as never, order: row.order, maxEpochs: 100_000, seed: row.seed });
      expect([fit.updates, fit.epochs]).toEqual([row.updates, row.epochs]);
    }
  });

  it("writes byte-identical tables on 1 and 3 threads, and reruns to the same bytes from its manifest", async () => {
    const { folder, file } = studyFolder();
    const one = join(folder, "one");
    const three = join(folder, "three");
    await runExperiment(loadExperiment(file), { outDir: one, threads: 1 });
    await runExperiment(loadExperiment(file), { outDir: three, threads: 3, batch: { maxRuns: 3 } });
    for (const table of TABLES) expect(readFileSync(join(three, table), "utf8")).toBe(readFileSync(join(one, table), "utf8"));
    const rerun = await rerunExperiment(one, join(folder, "rerun"), 2);
    expect(rerun.differences).toEqual([]);
  });

  it("shards and merges to the unsharded tables, the merge needing no data file, and refuses shards of different files", async () => {
    const { folder, file } = studyFolder({}, { repeats: 3 });
    const whole = join(folder, "whole");
    await runExperiment(loadExperiment(file), { outDir: whole, threads: 2 });
    const shards = [1, 2].map((index) => join(folder, `shard-${index}`));
    for (const [k, outDir] of shards.entries()) await runExperiment(loadExperiment(file), { outDir, threads: 2, shard: { index: k + 1, count: 2 } });
    rmSync(join(folder, "data"), { recursive: true });
    await mergeShards(join(folder, "merged"), shards);
    for (const table of TABLES) expect(readFileSync(join(folder, "merged", table), "utf8")).toBe(readFileSync(join(whole, table), "utf8"));
    // shard 2 again, on a changed file: the shards no longer read the same data
    mkdirSync(join(folder, "data"));
    copyFileSync(IRIS, join(folder, "data", "iris.csv"));
    writeFileSync(join(folder, "data", "flip.csv"), "x,label\n1,1\n2,1\n-1,-1\n-9,-1\n");
    await runExperiment(loadExperiment(file), { outDir: shards[1]!, threads: 2, shard: { index: 2, count: 2 }, overwrite: true });
    await expect(mergeShards(join(folder, "merged-2"), shards)).rejects.toThrow(`${shards[1]} read other data files than ${shards[0]} (a data file changed between the shards' runs)`);
  });

  it("refuses to resume or rerun once a data file changed, even with --force", async () => {
    const { folder, file } = studyFolder({}, { repeats: 2 });
    const outDir = join(folder, "out");
    await runExperiment(loadExperiment(file), { outDir, threads: 2 });
    writeFileSync(join(folder, "data", "flip.csv"), "x,label\n1,1\n2,1\n-1,-1\n-4,-1\n");
    const changed = /data file data\/flip\.csv changed since the sweep was run \(sha256 [0-9a-f]{12}…, now [0-9a-f]{12}…\): its runs cannot be reused; restore the file, or start over with \{ overwrite: true \}$/;
    for (const force of [false, true]) {
      await expect(runExperiment(loadExperiment(file), { outDir, threads: 2, resume: true, force })).rejects.toThrow(changed);
    }
    await expect(rerunExperiment(outDir, join(folder, "rerun"), 2)).rejects.toThrow(changed);
    // --overwrite starts over with the new file
    const report = await runExperiment(loadExperiment(file), { outDir, threads: 2, overwrite: true });
    expect(report.outcome).toBe("complete");
  });

  it("names the grid entry and the file of a data file that cannot be read or breaks fit's rules", () => {
    const { folder } = studyFolder();
    const load = (data: unknown) => () => experimentFromObject({ grid: { generator: "csv", data } });
    expect(load(join(folder, "missing.csv"))).toThrow(`experiment experiment: grid.data: ${join(folder, "missing.csv")}: cannot read the data file (ENOENT)`);
    writeFileSync(join(folder, "bad.csv"), "x,label\n1,1\nabc,-1\n");
    expect(load([join(folder, "data", "iris.csv"), join(folder, "bad.csv")])).toThrow(`experiment experiment: grid.data[1]: ${join(folder, "bad.csv")}: line 3, column "x": "abc" is not a number`);
    expect(load(folder)).toThrow(`experiment experiment: grid.data: ${folder} is a folder, not a data file (a CSV with a header row)`);
    // A FIFO would block the main thread on its read (Ctrl-C unheard): refused before it is opened.
    execFileSync("mkfifo", [join(folder, "pipe.csv")]);
    expect(load(join(folder, "pipe.csv"))).toThrow(`experiment experiment: grid.data: ${join(folder, "pipe.csv")} is not a regular file (a pipe, a device or a socket): give the data as a file`);
    expect(() => experimentFromObject({ grid: { generator: "csv" } })).toThrow("grid.data is required by the csv generator");
    // Keys a data file's runs would ignore in silence (label noise on one's own data did nothing): refused.
    const iris = join(folder, "data", "iris.csv");
    expect(() => experimentFromObject({ grid: { generator: "csv", data: iris, overlap: 0.1 } })).toThrow(
      "grid.overlap: the csv generator does not take overlap; csv takes data, noise (n and d come from the file)",
    );
    expect(() => experimentFromObject({ grid: { generator: "csv", data: iris, n: 10 } })).toThrow("grid.n: the csv generator does not take n");
    expect(() => experimentFromObject({ grid: { generator: ["orthonormal", "hadamard"], n: 8, margin: 0.1 } })).toThrow(
      "grid.margin: none of the orthonormal, hadamard generators takes margin; orthonormal takes n, d; hadamard takes n, d",
    );
    // A key one generator of the grid takes is fine.
    expect(experimentFromObject({ grid: { generator: ["planted", "orthonormal"], n: 8, d: 8, margin: 0.1, bias: false } }).experiment.grids[0]!.margin).toEqual([0.1]);
  });
});

describe("label noise on a data file", () => {
  it("flips each run's own labels (a rate's flips a subset of a larger rate's), computes the bounds beyond separable data, and leaves a noiseless sweep as it was", async () => {
    const { folder, file } = studyFolder({ data: ["data/iris.csv"], eta: 1, init: "zero", order: "cyclic", noise: [0, 0.05, 0.2] }, { maxEpochs: 30, repeats: 3 });
    const out = join(folder, "out");
    await runExperiment(loadExperiment(file), { threads: 2, outDir: out });
    const rows = rowsOf(out);
    expect(rows.map((row) => row.noise)).toEqual([0, 0, 0, 0.05, 0.05, 0.05, 0.2, 0.2, 0.2]);
    // Noise 0: the file's data, the same run three times (ŵ(0) = 0, cyclic); with noise each repeat its own flips.
    const at = (noise: number) => rows.filter((row) => row.noise === noise);
    expect(new Set(at(0).map((row) => row.updates)).size).toBe(1);
    expect(at(0).every((row) => row.converged && row.separable === true && row.plantedFreundSchapireBound === null)).toBe(true);
    expect(new Set(at(0.2).map((row) => `${row.updates} ${row.finalErrors}`)).size).toBeGreaterThan(1);
    // Not separable with 20 % of 150 labels flipped: to maxEpochs, with the Freund–Schapire bounds (the default's beyond separable data).
    for (const row of at(0.2)) {
      expect(row).toMatchObject({ converged: false, separable: false, optimalStatus: "infeasible" });
      expect(row.tightestFreundSchapireBound).toBeGreaterThan(row.updates);
    }
    // The flips themselves: replayed with the generator, a repeat's 5 % flips are a subset of its 20 % flips, near the rates.
    const { loadExperiment: load } = await import("../../src/experiment/load-experiment.js");
    const { planSweep } = await import("../../src/sweep/plan-sweep.js");
    const { generateData } = await import("../../src/generators/generate-data.js");
    const { createDraws } = await import("../../src/random/random-draws.js");
    const loaded = load(file);
    const clean = await readDataCsv(join(folder, "data", "iris.csv"));
    const dataSets = new Map([["data/iris.csv", clean]]);
    const specs = [...planSweep(loaded.experiment).runs()];
    const flipped = (spec: (typeof specs)[number]) => {
      const data = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), dataSets);
      return new Set(Array.from(data.y, (label, i) => (label !== clean.y[i] ? i : -1)).filter((i) => i >= 0));
    };
    for (let repeat = 0; repeat < 3; repeat++) {
      const low = flipped(specs[3 + repeat]!);
      const high = flipped(specs[6 + repeat]!);
      expect([...low].every((i) => high.has(i))).toBe(true);
      expect(high.size).toBeGreaterThan(10);
      expect(high.size).toBeLessThan(55);
      expect(specs[3 + repeat]!.seed).toBe(specs[6 + repeat]!.seed);
    }
    expect(flipped(specs[0]!).size).toBe(0);
    // The shared data were not changed by any run.
    expect(Array.from(dataSets.get("data/iris.csv")!.y)).toEqual(Array.from((await readDataCsv(join(folder, "data", "iris.csv"))).y));
  });
});

describe("hostile data-file names", () => {
  it("reach runs.csv and summary.csv as text a spreadsheet does not run, report.md as text, runs.jsonl as they are", async () => {
    const folder = temporaryFolder();
    const formula = "=HYPERLINK(x)-a.csv";
    const markup = "<img src=x onerror=alert(1)>|b.csv";
    for (const name of [formula, markup]) copyFileSync(IRIS, join(folder, name));
    const file = join(folder, "hostile.json");
    writeFileSync(file, JSON.stringify({ name: "hostile", grid: { generator: "csv", data: [formula, markup] } }));
    const out = join(folder, "out");
    await runExperiment(loadExperiment(file), { outDir: out, threads: 1 });
    const { writeReport } = await import("../../src/report/write-report.js");
    await writeReport(out);
    expect(rowsOf(out).map((row) => row.data)).toEqual([formula, markup]);
    for (const table of ["runs.csv", "summary.csv"]) {
      const text = readFileSync(join(out, table), "utf8");
      expect(text).toContain(`,'${formula},`);
      expect(text).not.toMatch(/(^|,)=HYPERLINK/m);
      // Negative numbers are numbers, never escaped.
      expect(text).not.toMatch(/'-\d/);
    }
    const markdown = readFileSync(join(out, "report.md"), "utf8");
    expect(markdown).not.toContain("<img");
    expect(markdown).toContain("&lt;img src=x onerror=alert(1)&gt;\\|b.csv");
    // Every table line still has its columns: the | inside the name is escaped.
    const tableLines = markdown.split("\n").filter((line) => line.startsWith("| "));
    const cells = (line: string) => line.split(/(?<!\\)\|/).length;
    for (const line of tableLines) expect(cells(line)).toBe(cells(tableLines[0]!));
  });
});
