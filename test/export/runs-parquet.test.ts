import { spawnSync } from "node:child_process";
import { readFileSync, rmSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { parquetMetadata, parquetReadObjects } from "hyparquet";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { RUN_COLUMNS } from "../../src/run/run-columns.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { writeRunsParquet } from "../../src/runner/write-runs-parquet.js";
import { EVERY_VALUE_GRID, temporaryFolder } from "../helpers.js";
import { RunsParquetWriter } from "../../src/export/runs-parquet-writer.js";
import { encodeRows } from "../../src/export/binary-rows.js";
import { BUILT_IN } from "../../src/run/table-layout.js";
import type { RunRow } from "../../src/run/run-types.js";

const source = { name: "parquet", repeats: 3, maxEpochs: 30, grid: EVERY_VALUE_GRID };
const loaded: LoadedExperiment = { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "e".repeat(64) };

const bytes = (folder: string) => readFileSync(join(folder, "runs.parquet"));
const records = (folder: string) =>
  readFileSync(join(folder, "runs.jsonl"), "utf8")
    .split("\n")
    .filter((line) => line !== "")
    .map((line) => {
      const { check: _, ...row } = JSON.parse(line) as Record<string, unknown>;
      return row;
    });

const python = process.env.PARQUET_PYTHON ?? "python3";
const pythonReads = spawnSync(python, ["-c", "import pyarrow, pandas, polars"], { encoding: "utf8" }).status === 0;
if (!pythonReads) console.warn(`Skipping the pyarrow/pandas/polars check of runs.parquet: ${python} cannot import them (set PARQUET_PYTHON to a python that can)`);

describe("runs.parquet", () => {
  it("is the same bytes from rows as numbers (the journal's) as from their row objects, across row groups", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 2, outDir: folder });
    const rows = records(folder) as unknown as RunRow[];
    const written = (feed: (writer: RunsParquetWriter) => void) => {
      const parts: Uint8Array[] = [];
      const writer = new RunsParquetWriter((part) => parts.push(part.slice()), 7, BUILT_IN, "perceptron-lab");
      feed(writer);
      return { digest: writer.finish(), bytes: Buffer.concat(parts) };
    };
    const fromRows = written((writer) => writer.add(rows));
    // In batches that cross the groups of 7 rows unevenly.
    const fromNumbers = written((writer) => {
      for (let at = 0; at < rows.length; at += 5) writer.addBinary(encodeRows(rows.slice(at, at + 5), { owned: true }));
    });
    expect(fromNumbers.bytes.equals(fromRows.bytes)).toBe(true);
    expect(fromNumbers.digest).toEqual(fromRows.digest);
    expect(fromRows.digest.rows).toBe(rows.length);
  });

  it("holds the runs table, typed, the same bytes whatever the threads or shards", async () => {
    const one = temporaryFolder();
    const two = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: one, parquet: true });
    await runExperiment(loaded, { threads: 2, outDir: two, parquet: true });
    expect(bytes(two).equals(bytes(one))).toBe(true);

    const file = new Uint8Array(bytes(one)).buffer;
    const metadata = parquetMetadata(file);
    expect(metadata.schema.slice(1).map((element) => element.name)).toEqual(RUN_COLUMNS);
    // Parquet's convention, "name version X" (0.12.2 wrote no version).
    expect(metadata.created_by).toBe(`perceptron-lab version ${JSON.parse(readFileSync("package.json", "utf8")).version}`);
    const read = (await parquetReadObjects({ file })) as Record<string, unknown>[];
    // Whole numbers come back as BigInt (INT64); everything else as written in runs.jsonl.
    const plain = read.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, typeof value === "bigint" ? Number(value) : value])));
    expect(plain).toEqual(records(one));
    expect(typeof read[0]!.updates).toBe("bigint");
    expect(read.some((row) => row.expectedUpdates === null) && read.some((row) => row.expectedUpdates !== null)).toBe(true);

    // A resume keeps to the folder's --parquet; a rerun writes it and compares it byte for byte.
    const manifestPath = join(two, "manifest.json");
    writeFileSync(manifestPath, readFileSync(manifestPath, "utf8").replace('"status": "complete"', '"status": "interrupted"'));
    rmSync(join(two, "runs.parquet"));
    await runExperiment(loaded, { threads: 2, outDir: two, resume: true });
    expect(bytes(two).equals(bytes(one))).toBe(true);
    const rerun = await rerunExperiment(one, temporaryFolder());
    expect(rerun).toMatchObject({ identical: true, tables: ["runs.csv", "runs.jsonl", "summary.csv", "summary.json", "runs.parquet"] });

    const folder = temporaryFolder();
    const dirs = [1, 2, 3].map((index) => join(folder, `shard-${index}`));
    for (const [k, dir] of dirs.entries()) await runExperiment(loaded, { threads: 1, outDir: dir, shard: { index: k + 1, count: 3 } });
    await mergeShards(join(folder, "merged"), dirs, { parquet: true });
    expect(bytes(join(folder, "merged")).equals(bytes(one))).toBe(true);
  });

  it.skipIf(!pythonReads)("reads in pyarrow, pandas and polars (where a python has them: PARQUET_PYTHON, else python3)", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 2, outDir: folder, parquet: true });
    const script = [
      "import sys, json, pyarrow.parquet as pq, pandas as pd, polars as pl",
      "path = sys.argv[1]",
      "t = pq.read_table(path); d = pd.read_parquet(path); p = pl.read_parquet(path)",
      "print(json.dumps({'rows': [t.num_rows, len(d), p.height], 'updates': str(t.schema.field('updates').type), 'margin': str(p.schema['margin']), 'sum': int(d['updates'].sum())}))",
    ].join("\n");
    const rows = records(folder);
    const expected = {
      rows: [rows.length, rows.length, rows.length],
      updates: "int64",
      margin: "Float64",
      sum: rows.reduce((sum, row) => sum + ((row.updates as number | null) ?? 0), 0),
    };
    const result = spawnSync(python, ["-c", script, join(folder, "runs.parquet")], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(JSON.parse(result.stdout)).toEqual(expected);
    // A shard's file: small row groups, without statistics or page index.
    writeRunsParquet(folder, 7);
    const shardLike = spawnSync(python, ["-c", script, join(folder, "runs.parquet")], { encoding: "utf8" });
    expect(shardLike.stderr).toBe("");
    expect(JSON.parse(shardLike.stdout)).toEqual(expected);
  });
});
