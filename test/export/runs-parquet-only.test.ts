import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { compareResults } from "../../src/compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule } from "../../src/compare/fail-rule.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runLines } from "../../src/export/run-lines.js";
import { shardRowGroup, WHOLE_ROW_GROUP } from "../../src/export/runs-parquet.js";
import { RunsParquetReader } from "../../src/export/runs-parquet-reader.js";
import { writeReport } from "../../src/report/write-report.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { writeRunsParquet } from "../../src/runner/write-runs-parquet.js";
import { EVERY_VALUE_GRID, temporaryFolder } from "../helpers.js";

const source = { name: "parquet-only", repeats: 3, maxEpochs: 30, grid: EVERY_VALUE_GRID };
const experiment = (repeats = source.repeats, optimal = false): LoadedExperiment => {
  const changed = { ...source, repeats, optimal };
  return { path: "inline.json", experiment: parseExperiment(changed, "inline"), source: changed, hash: `${repeats}${optimal}`.padEnd(64, "0") };
};
// The folders' tests skip the max-margin QP and its searches (most of a run's time here); the reader's test
// keeps them, for every column filled.
const loaded = experiment();
const rich = experiment(source.repeats, true);

const read = (folder: string, file: string) => readFileSync(join(folder, file));
const jsonlLines = (folder: string) => readFileSync(join(folder, "runs.jsonl"), "utf8").split("\n").filter((line) => line !== "");
const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as Record<string, unknown>;

describe("runs.parquet read back (RunsParquetReader)", () => {
  it("gives every row as its runs.jsonl record, line for line, in groups of any size; hyparquet's own reader agrees", async () => {
    const folder = temporaryFolder();
    await runExperiment(rich, { threads: 1, outDir: folder });
    const lines = jsonlLines(folder);
    for (const group of [WHOLE_ROW_GROUP, 7, 1]) {
      const digest = writeRunsParquet(folder, group);
      expect(digest.rows).toBe(lines.length);
      const reader = new RunsParquetReader(join(folder, "runs.parquet"));
      expect(reader.groupCount).toBe(Math.ceil(lines.length / group));
      const rows = [...reader];
      expect(rows.map((row) => runLines([row]).jsonl.slice(0, -1))).toEqual(lines);
      // The independent reader: hyparquet's parquetReadObjects (asynchronous, its own assembly).
      const file = new Uint8Array(read(folder, "runs.parquet")).buffer;
      const theirs = (await parquetReadObjects({ file })) as Record<string, unknown>[];
      expect(theirs.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? Number(value) : value])))).toEqual(rows);
      // Small groups carry no statistics nor page index (they would outweigh the data); whole ones do.
      const columns = parquetMetadata(file).row_groups[0]!.columns;
      expect(columns.every((column) => column.meta_data!.statistics !== undefined)).toBe(group === WHOLE_ROW_GROUP);
    }
  });

  it("refuses a file that is not a runs table", () => {
    const folder = temporaryFolder();
    writeFileSync(join(folder, "x.parquet"), "PAR1 not really");
    expect(() => new RunsParquetReader(join(folder, "x.parquet"))).toThrow(/not a Parquet file/);
  });

  it("sizes a shard's row groups so that merge holds about the same whatever the shard count", () => {
    expect(shardRowGroup(1)).toBe(WHOLE_ROW_GROUP);
    expect(shardRowGroup(1000)).toBe(262);
    expect(shardRowGroup(10_000)).toBe(64);
    for (const count of [2, 10, 100, 1000, 4096]) expect(shardRowGroup(count) * count).toBeLessThanOrEqual(262_144);
  });
});

describe("run --parquet-only", () => {
  it("keeps runs.parquet alone; report, compare, readResultFolder and rerun read it as they read runs.jsonl", async () => {
    const text = temporaryFolder();
    const only = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: text, parquet: true });
    await runExperiment(loaded, { threads: 1, outDir: only, parquetOnly: true });
    expect(readdirSync(only).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    for (const file of ["runs.parquet", "summary.csv", "summary.json"]) expect(read(only, file).equals(read(text, file))).toBe(true);
    const manifest = manifestOf(only);
    expect(manifest.options).toMatchObject({ parquet: true, parquetOnly: true });
    expect(manifest.runsParquet).toEqual(manifestOf(text).runsParquet);
    expect(manifest.runsParquet).toMatchObject({ rows: jsonlLines(text).length, bytes: read(only, "runs.parquet").length });

    expect([...readResultFolder(only).runs()]).toEqual([...readResultFolder(text).runs()]);
    // compare reads every run (Mann–Whitney): against the text folder it finds what it finds against itself.
    const rules = DEFAULT_FAIL_RULES.map(parseFailRule);
    const strip = (report: object) => JSON.stringify(report).replaceAll(text, "X").replaceAll(only, "X");
    const same = compareResults(text, only, rules);
    expect(same.outcomes.length).toBeGreaterThan(0);
    expect(strip(same)).toBe(strip(compareResults(text, text, rules)));
    await writeReport(text);
    await writeReport(only);
    expect(readFileSync(join(only, "report.md"), "utf8").replaceAll(only, "X")).toBe(readFileSync(join(text, "report.md"), "utf8").replaceAll(text, "X"));

    const rerun = await rerunExperiment(only, temporaryFolder());
    expect(rerun).toMatchObject({ identical: true, tables: ["summary.csv", "summary.json", "runs.parquet"] });

    // A valid runs.jsonl of another sweep put beside runs.parquet: 0.12.2's readers read it instead.
    const foreign = temporaryFolder();
    await runExperiment(experiment(2), { threads: 1, outDir: foreign });
    writeFileSync(join(only, "runs.jsonl"), read(foreign, "runs.jsonl"));
    expect([...readResultFolder(only).runs()]).toEqual([...readResultFolder(text).runs()]);
    expect(strip(compareResults(text, only, rules))).toBe(strip(same));
    rmSync(join(only, "runs.jsonl"));
  });

  it("refuses a runs.parquet changed after it was written, in every reader", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: folder, parquetOnly: true });
    const path = join(folder, "runs.parquet");
    const good = read(folder, "runs.parquet");
    const flipped = Buffer.from(good);
    flipped[Math.floor(flipped.length / 2)]! ^= 1;
    writeFileSync(path, flipped);
    expect(() => [...readResultFolder(folder).runs()]).toThrow(/runs\.parquet: its SHA-256 is .*, its manifest records/);
    await expect(writeReport(folder)).rejects.toThrow(/runs\.parquet: its SHA-256/);
    writeFileSync(path, good.subarray(0, good.length - 1));
    expect(() => [...readResultFolder(folder).runs()]).toThrow(/runs\.parquet: \d+ bytes, but its manifest records \d+/);
    rmSync(path);
    expect(() => [...readResultFolder(folder).runs()]).toThrow(/runs\.parquet: missing/);
  });

  it("resumes: a kill after the manifest leaves the journal, taken away on resume; a changed sweep reuses the parquet's rows", async () => {
    const fresh = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: fresh, parquetOnly: true });
    expect(readdirSync(fresh).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    // The state a kill between the complete manifest and the removal of the journal leaves: an interrupted sweep's
    // journal beside the complete folder's runs.parquet.
    const killed = temporaryFolder();
    cpSync(fresh, killed, { recursive: true });
    const partial = temporaryFolder();
    const controller = new AbortController();
    await runExperiment(loaded, { threads: 1, outDir: partial, parquetOnly: true, batch: { maxRuns: 1 }, signal: controller.signal, onProgress: (done) => done >= 2 && controller.abort() });
    cpSync(join(partial, "runs.journal"), join(killed, "runs.journal"));
    const again = await runExperiment(loaded, { threads: 1, outDir: killed, resume: true });
    expect(again.outcome).toBe("already-complete");
    expect(existsSync(join(killed, "runs.journal"))).toBe(false);
    expect(read(killed, "runs.parquet").equals(read(fresh, "runs.parquet"))).toBe(true);

    // More repeats, resumed with --force: the recorded rows come back from runs.parquet and are reused.
    const more = experiment(5);
    const grown = temporaryFolder();
    cpSync(fresh, grown, { recursive: true });
    const report = await runExperiment(more, { threads: 1, outDir: grown, resume: true, force: true });
    expect(report.counts.reused).toBeGreaterThan(0);
    const direct = temporaryFolder();
    await runExperiment(more, { threads: 1, outDir: direct, parquetOnly: true });
    expect(readdirSync(grown).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    for (const file of ["runs.parquet", "summary.csv", "summary.json"]) expect(read(grown, file).equals(read(direct, file))).toBe(true);

    // A complete text folder asked for --parquet-only: runs.parquet written and recorded, the text tables go.
    const converted = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: converted });
    await runExperiment(loaded, { threads: 1, outDir: converted, resume: true, parquetOnly: true });
    expect(readdirSync(converted).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    expect(read(converted, "runs.parquet").equals(read(fresh, "runs.parquet"))).toBe(true);
    expect([...readResultFolder(converted).runs()]).toEqual([...readResultFolder(fresh).runs()]);
  });
});

describe("merge of runs.parquet shards", () => {
  it("gives the tables of the whole sweep, from parquet-only shards, text shards or both", async () => {
    const whole = temporaryFolder();
    const wholeOnly = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: whole, parquet: true });
    await runExperiment(loaded, { threads: 1, outDir: wholeOnly, parquetOnly: true });
    const folder = temporaryFolder();
    const shards = [1, 2, 3].map((index) => join(folder, `shard-${index}`));
    for (const [k, dir] of shards.entries()) await runExperiment(loaded, { threads: 1, outDir: dir, shard: { index: k + 1, count: 3 }, parquetOnly: true });
    expect(readdirSync(shards[0]!).sort()).toEqual(["manifest.json", "runs.parquet"]);
    expect(new RunsParquetReader(join(shards[0]!, "runs.parquet")).groupCount).toBeGreaterThan(0);

    await mergeShards(join(folder, "only"), shards, { parquetOnly: true });
    expect(readdirSync(join(folder, "only")).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    for (const file of ["runs.parquet", "summary.csv", "summary.json"]) expect(read(join(folder, "only"), file).equals(read(wholeOnly, file))).toBe(true);
    expect(manifestOf(join(folder, "only")).runsParquet).toEqual(manifestOf(wholeOnly).runsParquet);

    // Text tables from parquet shards (asked for: the shards kept runs.parquet alone, and a merge keeps what they
    // kept unless told): the records are written anew, byte for byte those of the whole run.
    await mergeShards(join(folder, "text"), shards, { tables: ["csv", "jsonl", "parquet"] });
    for (const file of ["runs.csv", "runs.jsonl", "summary.csv", "summary.json", "runs.parquet"]) expect(read(join(folder, "text"), file).equals(read(whole, file))).toBe(true);

    // One shard of text among parquet ones.
    const textShard = join(folder, "text-2");
    await runExperiment(loaded, { threads: 1, outDir: textShard, shard: { index: 2, count: 3 } });
    await mergeShards(join(folder, "mixed"), [shards[0]!, textShard, shards[2]!], { tables: ["csv", "jsonl", "parquet"] });
    for (const file of ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"]) expect(read(join(folder, "mixed"), file).equals(read(whole, file))).toBe(true);

    // A shard as 0.15 left it (its runs.jsonl its record: no runs.parquet, a manifest that names no tables)
    // among these: read from its own record.
    const legacy = join(folder, "legacy-2");
    cpSync(textShard, legacy, { recursive: true });
    rmSync(join(legacy, "runs.parquet"));
    const { runsParquet: _digest, ...legacyManifest } = manifestOf(legacy);
    const { tables: _tables, ...legacyOptions } = legacyManifest.options as Record<string, unknown>;
    writeFileSync(join(legacy, "manifest.json"), JSON.stringify({ ...legacyManifest, tool: { ...(legacyManifest.tool as object), version: "0.15.0" }, options: legacyOptions }));
    await mergeShards(join(folder, "with-legacy"), [shards[0]!, legacy, shards[2]!], { tables: ["csv", "jsonl", "parquet"], allowMixedVersions: true });
    for (const file of ["runs.csv", "runs.jsonl", "summary.csv", "summary.json", "runs.parquet"]) expect(read(join(folder, "with-legacy"), file).equals(read(whole, file))).toBe(true);

    // A changed shard is refused, and the output folder is left as it was.
    const path = join(shards[1]!, "runs.parquet");
    const bytes = Buffer.from(readFileSync(path));
    bytes[100]! ^= 1;
    writeFileSync(path, bytes);
    await expect(mergeShards(join(folder, "refused"), shards, { parquetOnly: true })).rejects.toThrow(/shard-2\/runs\.parquet: its SHA-256/);
    expect(existsSync(join(folder, "refused", "manifest.json"))).toBe(false);
  });
});
