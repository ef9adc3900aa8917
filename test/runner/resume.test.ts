import { existsSync, readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment, type RunExperimentOptions } from "../../src/runner/run-experiment.js";
import { resultTables, temporaryFolder } from "../helpers.js";


function loaded(source: Record<string, unknown>, hash = "a".repeat(64)): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash };
}

// Without the max-margin separator (the golden tables hold its columns): these tests are of files and folders.
const source = { name: "resume", seed: 3, repeats: 6, optimal: false, grid: { n: [20, 40], d: [2, 5], margin: [0.05, 0.2], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"] } };
const sweep = loaded(source);
const RUNS = 192;
const small = { threads: 2, batch: { maxRuns: 4 } } satisfies RunExperimentOptions;

const lines = (folder: string, file = "runs.jsonl") => readFileSync(join(folder, file), "utf8").split("\n").filter(Boolean);

/** Runs until `after` runs are written, then aborts as Ctrl-C does. */
async function interruptAfter(after: number, outDir: string, options: RunExperimentOptions = {}) {
  const controller = new AbortController();
  return runExperiment(sweep, {
    ...small,
    ...options,
    outDir,
    signal: controller.signal,
    onProgress: (done) => {
      if (done >= after) controller.abort();
    },
  });
}

describe("resume", () => {
  const reference = temporaryFolder();
  const clean = runExperiment(sweep, { ...small, outDir: reference });

  it("stops handing out work when interrupted, writes a whole prefix, and resumes to identical tables", async () => {
    await clean;
    const outDir = temporaryFolder();
    const report = await interruptAfter(20, outDir);
    expect(report.outcome).toBe("interrupted");
    expect(report.counts.recorded).toBeGreaterThanOrEqual(20);
    expect(report.counts.recorded).toBeLessThan(RUNS);
    const written = lines(outDir);
    expect(written.map((line) => JSON.parse(line).run)).toEqual([...Array(report.counts.recorded).keys()]);
    // summary.json stays a valid array, of complete points only.
    const partial = JSON.parse(readFileSync(join(outDir, "summary.json"), "utf8"));
    expect(partial.length).toBe(Math.floor(report.counts.recorded / 6));
    expect(JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")).status).toBe("interrupted");

    const resumed = await runExperiment(sweep, { ...small, outDir, resume: true });
    expect(resumed.outcome).toBe("complete");
    expect(resumed.counts.reused).toBe(report.counts.recorded);
    expect(resultTables(outDir)).toEqual(resultTables(reference));
    expect(existsSync(join(outDir, "runs.previous.jsonl"))).toBe(false);
  });

  it("drops a record torn by a kill, and survives a resume that was itself interrupted", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(40, outDir);
    const jsonl = join(outDir, "runs.jsonl");
    truncateSync(jsonl, readFileSync(jsonl).length - 25);
    // The resume is interrupted too: runs.jsonl (new, partial) and runs.previous.jsonl both remain.
    await interruptAfter(10, outDir, { resume: true });
    expect(existsSync(join(outDir, "runs.previous.jsonl"))).toBe(true);
    const final = await runExperiment(sweep, { ...small, outDir, resume: true });
    expect(final.outcome).toBe("complete");
    expect(resultTables(outDir)).toEqual(resultTables(reference));
  });

  it("refuses a line that is not its run's record, naming file and line", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(30, outDir);
    const rows = lines(outDir);
    rows[5] = rows[6]!;
    writeFileSync(join(outDir, "runs.jsonl"), `${rows.join("\n")}\n`);
    const manifest = readFileSync(join(outDir, "manifest.json"), "utf8");
    await expect(runExperiment(sweep, { ...small, outDir, resume: true })).rejects.toThrow(
      new InputError(`${join(outDir, "runs.jsonl")}: line 7 is run 6, not in order (after run 6); the result folder was changed by hand (or written by a perceptron-lab older than 0.2): { overwrite: true } starts over`),
    );
    // Valid JSON that is no record is said as such (0.12.2: "is not JSON" for some, "not in order" for others).
    for (const foreign of ['{"a":1}', "[1,2]", "42", "null"]) {
      const edited = [...rows];
      edited[5] = foreign;
      writeFileSync(join(outDir, "runs.jsonl"), `${edited.join("\n")}\n`);
      await expect(runExperiment(sweep, { ...small, outDir, resume: true })).rejects.toThrow(
        `${join(outDir, "runs.jsonl")}: line 6 is JSON but not a run record (an object with a whole-number run);`,
      );
    }
    writeFileSync(join(outDir, "runs.jsonl"), `${rows.join("\n")}\n`);
    // Refused before anything was rewritten: the file the user edited, under its own name, and the manifest as it was.
    expect(lines(outDir)).toEqual(rows);
    expect(existsSync(join(outDir, "runs.previous.jsonl"))).toBe(false);
    expect(readFileSync(join(outDir, "manifest.json"), "utf8")).toBe(manifest);

    // A record's text changed (its check no longer matches): the same, named by line.
    const changed = temporaryFolder();
    await interruptAfter(30, changed);
    const records = lines(changed);
    records[2] = records[2]!.replace(/"updates":(\d+)/, (_, updates: string) => `"updates":${Number(updates) + 1}`);
    writeFileSync(join(changed, "runs.jsonl"), `${records.join("\n")}\n`);
    await expect(runExperiment(sweep, { ...small, outDir: changed, resume: true })).rejects.toThrow(`${join(changed, "runs.jsonl")}: line 3`);
    expect(lines(changed)).toEqual(records);
  });

  it("resumes a finished sweep as a no-op", async () => {
    await clean;
    const before = resultTables(reference);
    const report = await runExperiment(sweep, { ...small, outDir: reference, resume: true });
    expect(report.outcome).toBe("already-complete");
    expect(resultTables(reference)).toEqual(before);
  });

  it("never overwrites results silently", async () => {
    await clean;
    await expect(runExperiment(sweep, { ...small, outDir: reference })).rejects.toThrow(
      new InputError(`${reference} already holds results of resume (${RUNS} of ${RUNS} runs): add { resume: true } to continue them, or { overwrite: true } to replace them`),
    );
    const outDir = temporaryFolder();
    await interruptAfter(10, outDir);
    const again = await runExperiment(sweep, { ...small, outDir, overwrite: true });
    expect(again.counts.reused).toBe(0);
    expect(resultTables(outDir)).toEqual(resultTables(reference));
  });

  it("refuses to resume from a changed experiment file unless forced, then reuses the runs that still match", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(60, outDir);
    const changed = loaded({ ...source, grid: { ...source.grid, margin: [0.05, 0.1, 0.2] } }, "b".repeat(64));
    await expect(runExperiment(changed, { ...small, outDir, resume: true })).rejects.toThrow(
      `${outDir} was made from a different experiment (sha256 aaaaaaaaaaaa…, now bbbbbbbbbbbb…): { resume: true, force: true } reuses the runs that still match it, { overwrite: true } starts over`,
    );
    const forced = await runExperiment(changed, { ...small, outDir, resume: true, force: true });
    expect(forced.counts.reused).toBeGreaterThan(0);
    const fresh = temporaryFolder();
    await runExperiment(changed, { ...small, outDir: fresh });
    expect(resultTables(outDir)).toEqual(resultTables(fresh));
  });
});
