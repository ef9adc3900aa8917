import { describe, expect, it } from "vitest";
import { batchOutput, joinOutputs } from "../../src/pool/batch-output.js";
import { errorRow, executeRun } from "../../src/run/execute-run.js";
import { batchSpecs } from "../../src/sweep/run-batch.js";
import { pointParameters, sweepPoint, TEST_SETTINGS } from "../helpers.js";
import { blocksRows } from "../../src/export/journal-blocks.js";
import { decodeRow, type BinaryRows } from "../../src/export/binary-rows.js";
import type { BatchOutput } from "../../src/pool/batch-output.js";
import { BUILT_IN } from "../../src/run/table-layout.js";

/** An output with its journal's blocks and its rows as numbers read back as rows: cut otherwise, they hold the same rows. */
function withJournalRows(output: BatchOutput): unknown {
  const decoded = (parts: readonly BinaryRows[]) => parts.flatMap((rows) => Array.from({ length: rows.count }, (_, k) => decodeRow(rows, k)));
  return { ...output, journal: decoded(blocksRows(output.journal, BUILT_IN.width)), rows: decoded(output.rows) };
}

describe("joinOutputs", () => {
  it("gives the output of all the rows at once, however they were split", () => {
    const a = sweepPoint(0, pointParameters({ n: 30, d: 3 }), 3);
    const b = sweepPoint(1, pointParameters({ n: 30, d: 4 }), 3);
    const specs = batchSpecs({ settings: TEST_SETTINGS, ranges: [{ point: a, from: 0, to: 3 }, { point: b, from: 0, to: 2 }] });
    const rows = specs.map((spec, k) => (k === 1 ? errorRow(spec, "boom") : executeRun(spec)));
    const whole = batchOutput(rows);
    expect(whole.digest.heads.map((head) => head.point)).toEqual([0, 1]);
    expect(whole.digest.notable).toEqual([rows[1]]);
    expect(withJournalRows(whole)).toMatchObject({ journal: rows, rows });
    expect(withJournalRows(joinOutputs(rows.map((row) => batchOutput([row]))))).toEqual(withJournalRows(whole));
    expect(withJournalRows(joinOutputs([batchOutput(rows.slice(0, 2)), batchOutput(rows.slice(2))]))).toEqual(withJournalRows(whole));
  });

  it("releases each part (a ring's slot, see output-ring.ts) once it has copied it", () => {
    const specs = batchSpecs({ settings: TEST_SETTINGS, ranges: [{ point: sweepPoint(0, pointParameters({ n: 30, d: 3 }), 2), from: 0, to: 2 }] });
    const released: number[] = [];
    const parts = specs.map((spec, k) => ({ ...batchOutput([executeRun(spec)]), release: () => released.push(k) }));
    const joined = joinOutputs(parts);
    expect(released).toEqual([0, 1]);
    expect(joined.release).toBeUndefined();
    expect(withJournalRows(joined)).toEqual(withJournalRows(batchOutput(specs.map((spec) => executeRun(spec)))));
  });
});

describe("batchOutput", () => {
  it("formats the lines of the tables asked for only, each as it is with both", () => {
    const specs = batchSpecs({ settings: TEST_SETTINGS, ranges: [{ point: sweepPoint(0, pointParameters({ n: 30, d: 3 }), 3), from: 0, to: 3 }] });
    const rows = specs.map((spec) => executeRun(spec));
    const both = batchOutput(rows);
    expect(both.lines.jsonl.length).toBeGreaterThan(0);
    expect(both.lines.csv.length).toBeGreaterThan(0);
    expect(batchOutput(rows, { tables: { jsonl: true, csv: false } })).toEqual({ lines: { jsonl: both.lines.jsonl, csv: new Uint8Array(0) }, journal: both.journal, rows: both.rows, digest: both.digest });
    expect(batchOutput(rows, { tables: { jsonl: false, csv: true } })).toEqual({ lines: { jsonl: new Uint8Array(0), csv: both.lines.csv }, journal: both.journal, rows: both.rows, digest: both.digest });
    expect(batchOutput(rows, { tables: { jsonl: false, csv: false } })).toEqual({ lines: { jsonl: new Uint8Array(0), csv: new Uint8Array(0) }, journal: both.journal, rows: both.rows, digest: both.digest });
    // No journal's block where the folder keeps none (a merge's).
    expect(batchOutput(rows, { journal: false }).journal).toEqual(new Uint8Array(0));
  });
});
