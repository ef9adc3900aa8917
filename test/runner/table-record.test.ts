import { readFileSync, truncateSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareResults } from "../../src/compare/compare-results.js";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";

const source = { name: "recorded", repeats: 4, grid: { n: 20, d: 2, margin: [0.1, 0.2] } };
const loaded: LoadedExperiment = { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "c".repeat(64) };
const changed = (folder: string, what: string) => new InputError(`${folder}: ${what}: the folder was changed after it was written; { overwrite: true } runs the sweep again`);

describe("a complete folder's record of its tables", () => {
  it("records each table's size and the summaries' SHA-256 when the sweep completes", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: folder });
    const { tables } = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as { tables: Record<string, { bytes: number; sha256?: string }> };
    expect(Object.keys(tables).sort()).toEqual(["runs.csv", "runs.jsonl", "summary.csv", "summary.json"]);
    expect(tables["runs.jsonl"]!.bytes).toBe(readFileSync(join(folder, "runs.jsonl")).length);
    expect(tables["summary.json"]!.sha256).toMatch(/^[0-9a-f]{64}$/);
    expect(tables["runs.jsonl"]!.sha256).toBeUndefined();
    expect(tables["runs.csv"]!.sha256).toMatch(/^[0-9a-f]{64}$/);
  });

  it("refuses, on a resume of the complete folder, a same-size edit of runs.csv or runs.jsonl (0.12.2 called it complete)", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: folder });
    const csv = readFileSync(join(folder, "runs.csv"), "utf8");
    // One digit of a row's updates changed: the same size, and no reader of the tool reads runs.csv.
    const at = csv.indexOf("\n") + 1;
    const digit = at + csv.slice(at).search(/,\d,/) + 1;
    writeFileSync(join(folder, "runs.csv"), `${csv.slice(0, digit)}${(Number(csv[digit]) + 1) % 10}${csv.slice(digit + 1)}`);
    await expect(runExperiment(loaded, { threads: 1, outDir: folder, resume: true })).rejects.toThrow(changed(folder, "runs.csv is not the one the sweep wrote (its SHA-256 differs from manifest.json's record)"));
    writeFileSync(join(folder, "runs.csv"), csv);
    expect((await runExperiment(loaded, { threads: 1, outDir: folder, resume: true })).outcome).toBe("already-complete");
    // A record's digit changed in runs.jsonl: its check names the line.
    const jsonl = readFileSync(join(folder, "runs.jsonl"), "utf8");
    writeFileSync(join(folder, "runs.jsonl"), jsonl.replace(/"updates":(\d)/, (_, d: string) => `"updates":${(Number(d) + 1) % 10}`));
    await expect(runExperiment(loaded, { threads: 1, outDir: folder, resume: true })).rejects.toThrow(/runs\.jsonl: line 1 does not match its record check/);
  });

  it("refuses a summary edited after the sweep, a table cut short, and a manifest set to complete by hand", async () => {
    // An edit of the same length that no size could tell: summary.json's digest does.
    const edited = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: edited });
    const summary = readFileSync(join(edited, "summary.json"), "utf8");
    writeFileSync(join(edited, "summary.json"), summary.replace('"converged":4', '"converged":3'));
    expect(summary.includes('"converged":4')).toBe(true);
    expect(() => readResultFolder(edited)).toThrow(changed(edited, "summary.json is not the one the sweep wrote (its SHA-256 differs from manifest.json's record)"));
    expect(() => compareResults(edited, edited)).toThrow(InputError);
    // summary.csv, which no reader reads: checked when the complete folder is resumed.
    const csv = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: csv });
    const table = readFileSync(join(csv, "summary.csv"), "utf8");
    const digit = table.search(/\d(?=,)/);
    writeFileSync(join(csv, "summary.csv"), `${table.slice(0, digit)}${(Number(table[digit]) + 1) % 10}${table.slice(digit + 1)}`);
    await expect(runExperiment(loaded, { threads: 1, outDir: csv, resume: true })).rejects.toThrow(changed(csv, "summary.csv is not the one the sweep wrote (its SHA-256 differs from manifest.json's record)"));

    // runs.jsonl cut by a record: every remaining record's check holds, its size does not.
    const cut = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: cut });
    const bytes = readFileSync(join(cut, "runs.jsonl")).length;
    const last = readFileSync(join(cut, "runs.jsonl"), "utf8").trimEnd().split("\n").at(-1)!;
    truncateSync(join(cut, "runs.jsonl"), bytes - last.length - 1);
    const smaller = bytes - last.length - 1;
    await expect(runExperiment(loaded, { threads: 1, outDir: cut, resume: true })).rejects.toThrow(changed(cut, `runs.jsonl holds ${smaller} bytes where manifest.json recorded ${bytes} when the sweep completed`));

    // An interrupted sweep whose manifest was set to complete: no record of its tables, so not complete.
    const interrupted = temporaryFolder();
    const controller = new AbortController();
    controller.abort();
    await runExperiment(loaded, { threads: 1, outDir: interrupted, signal: controller.signal });
    const manifest = readFileSync(join(interrupted, "manifest.json"), "utf8");
    expect(manifest).toContain('"status": "interrupted"');
    writeFileSync(join(interrupted, "manifest.json"), manifest.replace('"status": "interrupted"', '"status": "complete"'));
    await expect(runExperiment(loaded, { threads: 1, outDir: interrupted, resume: true })).rejects.toThrow(
      changed(interrupted, "manifest.json says complete but records none of its tables' sizes, as a complete manifest of its version does"),
    );
  });

  it("refuses to resume as complete a --parquet-only folder whose runs.parquet was changed (a byte flipped: the same size)", async () => {
    const folder = temporaryFolder();
    await runExperiment(loaded, { threads: 1, outDir: folder, parquetOnly: true });
    const path = join(folder, "runs.parquet");
    const bytes = readFileSync(path);
    const middle = Math.floor(bytes.length / 2);
    bytes[middle] = bytes[middle]! ^ 0x01;
    writeFileSync(path, bytes);
    await expect(runExperiment(loaded, { threads: 1, outDir: folder, resume: true })).rejects.toThrow(/runs\.parquet: its SHA-256 is [0-9a-f]{12}…, its manifest records [0-9a-f]{12}…; the result folder was changed by hand/);
  });

});
