import { existsSync, readFileSync, rmSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment, type RunExperimentOptions } from "../../src/runner/run-experiment.js";
import { resultTables, temporaryFolder } from "../helpers.js";
import { blocksRows } from "../../src/export/journal-blocks.js";
import { decodeRow } from "../../src/export/binary-rows.js";
import { BUILT_IN } from "../../src/run/table-layout.js";


function loaded(source: Record<string, unknown>, hash = "a".repeat(64)): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash };
}

// Without the max-margin separator (the golden tables hold its columns): these tests are of files and folders.
const source = { name: "resume", seed: 3, repeats: 6, optimal: false, grid: { n: [20, 40], d: [2, 5], margin: [0.05, 0.2], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"] } };
const sweep = loaded(source);
const RUNS = 192;
const small = { threads: 2, batch: { maxRuns: 4 } } satisfies RunExperimentOptions;

/** A journal's blocks (after its 16-byte header), each as its bytes. */
function journalBlocks(bytes: Buffer): Buffer[] {
  const blocks: Buffer[] = [];
  for (let at = 16; at < bytes.length; ) {
    const end = at + 40 + bytes.readUInt32LE(at + 16);
    blocks.push(bytes.subarray(at, end));
    at = end;
  }
  return blocks;
}

/** The runs a block holds. */
function journalRuns(block: Buffer): number[] {
  return blocksRows(block, BUILT_IN.width).flatMap((rows) => Array.from({ length: rows.count }, (_, k) => decodeRow(rows, k).run));
}

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
    expect(existsSync(join(outDir, "runs.previous.journal"))).toBe(false);
  });

  it("drops a block torn by a kill, and survives a resume that was itself interrupted", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(40, outDir);
    const journal = join(outDir, "runs.journal");
    truncateSync(journal, readFileSync(journal).length - 25);
    // The resume is interrupted too: runs.journal (new, partial) and runs.previous.journal both remain.
    await interruptAfter(10, outDir, { resume: true });
    expect(existsSync(join(outDir, "runs.previous.journal"))).toBe(true);
    const final = await runExperiment(sweep, { ...small, outDir, resume: true });
    expect(final.outcome).toBe("complete");
    expect(resultTables(outDir)).toEqual(resultTables(reference));
    // Complete: the journal became runs.parquet, and went.
    expect(existsSync(journal)).toBe(false);
    expect(existsSync(join(outDir, "runs.previous.journal"))).toBe(false);
  });

  it("refuses a journal changed after it was written, naming file and block, and never reads a view back", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(30, outDir);
    const path = join(outDir, "runs.journal");
    const original = readFileSync(path);
    const blocks = journalBlocks(original);
    expect(blocks.length).toBeGreaterThan(3);
    const manifest = readFileSync(join(outDir, "manifest.json"), "utf8");
    const refused = async (bytes: Buffer, message: string) => {
      writeFileSync(path, bytes);
      await expect(runExperiment(sweep, { ...small, outDir, resume: true })).rejects.toThrow(new InputError(`${path}: ${message}; the result folder was changed by hand: { overwrite: true } starts over`));
      // Refused before anything was rewritten: the file as it was left, no previous journal, the manifest as it was.
      expect(readFileSync(path).equals(bytes)).toBe(true);
      expect(existsSync(join(outDir, "runs.previous.journal"))).toBe(false);
      expect(readFileSync(join(outDir, "manifest.json"), "utf8")).toBe(manifest);
    };
    const header = original.subarray(0, 16);
    const [b1, b2, b3] = blocks as [Buffer, Buffer, Buffer];
    const rest = Buffer.concat(blocks.slice(3));
    // A block in the place of another: valid, but its runs out of order.
    await refused(Buffer.concat([header, b1, b3, b2, rest]), `block 3 holds run ${journalRuns(b2)[0]} after run ${journalRuns(b3).at(-1)}: not in order`);
    // A byte of a block changed: its check no longer matches.
    const flipped = Buffer.from(b2);
    flipped[flipped.length - 3]! ^= 1;
    await refused(Buffer.concat([header, b1, flipped, b3, rest]), `block 2 (byte ${16 + b1.length}) does not match its check: it was changed after it was written`);
    // Bytes that are no block.
    await refused(Buffer.concat([header, b1, Buffer.from("not a block of any journal"), b2]), `block 2 (byte ${16 + b1.length}) is not the start of a block`);
    // Not a journal at all.
    await refused(Buffer.from("{\"run\":0}\n".repeat(4)), "does not start as a runs journal of this tool");

    // The views are never read back: runs.jsonl edited, cut or removed, the resume writes it again from the journal.
    writeFileSync(path, original);
    writeFileSync(join(outDir, "runs.jsonl"), "not a record\n");
    const resumed = await runExperiment(sweep, { ...small, outDir, resume: true });
    expect(resumed.outcome).toBe("complete");
    expect(resultTables(outDir)).toEqual(resultTables(reference));
  });

  it("resumes a folder of a version before 0.16, whose runs.jsonl was its record, to the same tables", async () => {
    await clean;
    const outDir = temporaryFolder();
    await interruptAfter(30, outDir);
    // As 0.15 left it: runs.jsonl the record, no journal, a manifest that names no tables.
    rmSync(join(outDir, "runs.journal"));
    const manifest = JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")) as { options: Record<string, unknown> };
    delete manifest.options.tables;
    writeFileSync(join(outDir, "manifest.json"), JSON.stringify(manifest));
    const recorded = lines(outDir).length;
    const resumed = await runExperiment(sweep, { ...small, outDir, resume: true });
    expect(resumed.counts.reused).toBe(recorded);
    expect(resultTables(outDir)).toEqual(resultTables(reference));
    expect(existsSync(join(outDir, "runs.previous.jsonl"))).toBe(false);
    expect(existsSync(join(outDir, "runs.parquet"))).toBe(true);
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
