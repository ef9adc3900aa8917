import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment, type RunExperimentOptions } from "../../src/runner/run-experiment.js";
import { resultTables, temporaryFolder } from "../helpers.js";

/** Faults planted in the pool's workers (src/pool/test-faults.ts): each run's failure is data, the sweep goes on. */
const source = { name: "pool-faults", seed: 3, repeats: 6, grid: { n: [20, 40], d: [2, 5], margin: [0.05, 0.2], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"] } };
const sweep: LoadedExperiment = { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "a".repeat(64) };
const RUNS = 192;
const small = { threads: 2, batch: { maxRuns: 4 } } satisfies RunExperimentOptions;
const lines = (folder: string) => readFileSync(join(folder, "runs.jsonl"), "utf8").split("\n").filter(Boolean);

describe("faults inside the pool", () => {
  it("turns a throwing, crashing, memory-hungry or hanging run into an error row, and keeps every other run", async () => {
    const reference = temporaryFolder();
    await runExperiment(sweep, { ...small, outDir: reference });
    const outDir = temporaryFolder();
    const faults = { throw: [3], exit: [50], allocate: [100], hang: [150] };
    const report = await runExperiment(sweep, { ...small, outDir, faults, runTimeoutSeconds: 3, workerMemoryMb: 64 } as RunExperimentOptions);
    expect(report.counts).toMatchObject({ runs: RUNS, errors: 4, recorded: RUNS });
    const rows = lines(outDir).map((line) => JSON.parse(line));
    const clean = lines(reference).map((line) => JSON.parse(line));
    expect(Object.fromEntries(rows.filter((row) => row.status === "error").map((row) => [row.run, row.error]))).toEqual({
      3: "test fault: run 3 throws",
      50: "the run's worker failed: worker exited with code: 3",
      100: "the run's worker ran out of memory (limit 64 MB)",
      150: "the run exceeded the time limit of 3 s",
    });
    rows.forEach((row, run) => {
      if (row.status === "ok") expect(row).toEqual(clean[run]);
      else expect({ seed: row.seed, generator: row.generator, n: row.n }).toEqual({ seed: clean[run].seed, generator: clean[run].generator, n: clean[run].n });
    });

    // --retry-errors reruns only the failed runs: the tables become those of a clean sweep.
    const retried = await runExperiment(sweep, { ...small, outDir, resume: true, retryErrors: true });
    expect(retried.counts).toMatchObject({ errors: 0, reused: RUNS - 4 });
    expect(resultTables(outDir)).toEqual(resultTables(reference));
  });
});
