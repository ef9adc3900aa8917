import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { INLINE_PARQUET_RUNS } from "../../src/pool/parquet-thread.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { resultTables, temporaryFolder } from "../helpers.js";

// Past INLINE_PARQUET_RUNS, so that runs.parquet is made on the sweep's parquet thread; tiny runs, no bounds.
const source = { name: "thread", seed: 5, repeats: 1100, optimal: false, bounds: [], grid: { n: 10, d: 2, margin: [0.1, 0.2], init: ["zero", "normal:1"] } };
const loaded: LoadedExperiment = { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "b".repeat(64) };

describe("a sweep's parquet thread", () => {
  it("makes the same runs.parquet at 1 and 2 threads, and through an interruption and a resume", async () => {
    expect(4 * 1100).toBeGreaterThan(INLINE_PARQUET_RUNS);
    const one = temporaryFolder();
    const two = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: one });
    await runExperiment(loaded, { threads: 2, outDir: two, batch: { maxRuns: 64 } });
    expect(resultTables(two)).toEqual(resultTables(one));
    const interrupted = temporaryFolder();
    const controller = new AbortController();
    const report = await runExperiment(loaded, { threads: 2, outDir: interrupted, batch: { maxRuns: 64 }, signal: controller.signal, onProgress: (done) => done >= 2000 && controller.abort() });
    expect(report.outcome).toBe("interrupted");
    await runExperiment(loaded, { threads: 2, outDir: interrupted, resume: true });
    expect(resultTables(interrupted)).toEqual(resultTables(one));
    // And the file its manifest records.
    const manifest = JSON.parse(readFileSync(join(one, "manifest.json"), "utf8")) as { runsParquet: { rows: number } };
    expect(manifest.runsParquet.rows).toBe(4400);
  });
});
