import { BLOCK_HEADER_BYTES, openBlock, readBlockHead } from "../../src/export/journal-blocks.js";
import { decodeRow } from "../../src/export/binary-rows.js";
import { BUILT_IN } from "../../src/run/table-layout.js";
import { describe, expect, it } from "vitest";
import { digestRows } from "../../src/aggregate/run-digest.js";
import { encodeRows } from "../../src/export/binary-rows.js";
import { runLines } from "../../src/export/run-lines.js";
import exportBatch from "../../src/pool/exporter.js";
import { NO_BYTES, NO_FLOATS, openOutput, openPosted, OutputRing, RING_SLOTS, type RingOutput } from "../../src/pool/output-ring.js";
import { executeRun } from "../../src/run/execute-run.js";
import { runSpec, STRUCTURED } from "../helpers.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const head = { count: 1, heads: [], notable: [], texts: [] };
const parts = (k: number) => ({ values: Float64Array.of(k, k / 2), rows: NO_FLOATS, jsonl: bytes(`{"run":${k}}\n`), csv: bytes(`${k}\n`), journal: NO_BYTES });

describe("OutputRing", () => {
  it("fills the lowest free slot, so that slots past those in use are never written (never resident)", () => {
    const ring = new OutputRing();
    const packed = [0, 1, 2].map((k) => ring.pack(parts(k), head) as RingOutput);
    expect(packed.map((message) => message.slot)).toEqual([0, 1, 2]);
    const opened = packed.map(openOutput);
    opened[1]!.release!();
    opened[0]!.release!();
    // Slots 0 and 1 are free again: the next two batches take them, not slots 3 and 4.
    const next = [3, 4].map((k) => ring.pack(parts(k), head) as RingOutput);
    expect(next.map((message) => message.slot)).toEqual([0, 1]);
    expect(new TextDecoder().decode(openOutput(next[1]!).lines.jsonl)).toBe('{"run":4}\n');
    expect(Array.from(openOutput(next[0]!).digest.values)).toEqual([3, 1.5]);
    // Slot 2 still holds its batch, untouched by the two after it.
    expect(new TextDecoder().decode(opened[2]!.lines.csv)).toBe("2\n");
  });

  it("sends a batch in its message when every slot is held", () => {
    const ring = new OutputRing();
    for (let k = 0; k < RING_SLOTS; k++) expect("ring" in ring.pack(parts(k), head)).toBe(true);
    const last = ring.pack(parts(99), head);
    expect("ring" in last).toBe(false);
    expect(new TextDecoder().decode(openOutput(last).lines.csv)).toBe("99\n");
  });

  it("carries a worker's rows as numbers to an exporter, which formats them, digests them and frees the worker's slot", () => {
    const rows = [1, 2, 3].map((run) => executeRun(runSpec({ run, seed: run, generator: "hadamard", n: 4, d: 3, ...STRUCTURED, eta: 1, maxEpochs: 100 })));
    const worker = new OutputRing();
    const binary = encodeRows(rows);
    const values = NO_FLOATS;
    const posted = worker.pack({ values, rows: binary.values, jsonl: NO_BYTES, csv: NO_BYTES, journal: NO_BYTES }, { count: 3, heads: [], notable: [], texts: binary.texts }) as RingOutput;
    expect(posted.slot).toBe(0);
    const formatted = openOutput(exportBatch({ posted, tables: { jsonl: true, csv: true }, journal: true }));
    const text = runLines(rows);
    expect(new TextDecoder().decode(formatted.lines.jsonl)).toBe(text.jsonl);
    expect(new TextDecoder().decode(formatted.lines.csv)).toBe(text.csv);
    // The digest, from the same numbers.
    const digest = digestRows(rows);
    expect(Array.from(formatted.digest.values)).toEqual(Array.from(digest.values));
    expect(formatted.digest.heads).toEqual(digest.heads);
    // The worker's slot is free again, its next batch takes it.
    expect((worker.pack({ values, rows: NO_FLOATS, jsonl: NO_BYTES, csv: NO_BYTES, journal: NO_BYTES }, head) as RingOutput).slot).toBe(0);
    // Only the tables asked for.
    const again = worker.pack({ values, rows: binary.values, jsonl: NO_BYTES, csv: NO_BYTES, journal: NO_BYTES }, { count: 3, heads: [], notable: [], texts: binary.texts });
    const jsonlOnly = openPosted(exportBatch({ posted: again, tables: { jsonl: true, csv: false }, journal: false }));
    expect(new TextDecoder().decode(jsonlOnly.parts.jsonl)).toBe(text.jsonl);
    expect(jsonlOnly.parts.csv.length).toBe(0);
    // The journal's block only where asked for, and then the rows themselves (journal-blocks.ts).
    expect(jsonlOnly.parts.journal.length).toBe(0);
    const block = formatted.journal;
    const blockHead = readBlockHead(block);
    if (typeof blockHead === "string") throw new Error(blockHead);
    const decoded = openBlock(blockHead, block.subarray(0, BLOCK_HEADER_BYTES), block.subarray(BLOCK_HEADER_BYTES), BUILT_IN.width);
    if (typeof decoded === "string") throw new Error(decoded);
    expect(runLines([0, 1, 2].map((k) => decodeRow(decoded, k)))).toEqual(text);
  });
});
