import { afterAll, describe, expect, it } from "vitest";
import { runLines } from "../../src/export/run-lines.js";
import { RING_SLOT_BYTES, RING_SLOTS } from "../../src/pool/output-ring.js";
import { exporterThreads, RunPool } from "../../src/pool/run-pool.js";
import { batchOutput, type BatchOutput } from "../../src/pool/batch-output.js";
import { executeRun, executeRunSafely } from "../../src/run/execute-run.js";
import { batchSpecs, type RunBatch } from "../../src/sweep/run-batch.js";
import { pointParameters, sweepPoint, TEST_SETTINGS } from "../helpers.js";

const planted = sweepPoint(0, pointParameters({ n: 40, d: 3, order: "shuffle" }), 2);
const hadamard = sweepPoint(1, pointParameters({ generator: "hadamard", n: 8, d: 7, margin: null, radius: null, offset: null }), 2);
const bogus = sweepPoint(2, pointParameters({ n: 40, d: 3, init: "bogus" }), 2);

/** An output as plain arrays (copies of a ring's views), its slot released: what batchOutput gives in process. */
function settled(output: BatchOutput): BatchOutput {
  const plain = { lines: { jsonl: output.lines.jsonl.slice(), csv: output.lines.csv.slice() }, journal: output.journal.slice(), rows: output.rows.map((rows) => ({ ...rows, values: rows.values.slice() })), digest: { ...output.digest, values: output.digest.values.slice() } };
  output.release?.();
  return plain;
}

/** A pool whose threads load worker.ts through tsx, not the bundle of it the other tests' pools load (test/global-setup.ts). */
function poolThroughTsx(threads: number): RunPool {
  const bundle = process.env.PERCEPTRON_LAB_TEST_WORKER;
  delete process.env.PERCEPTRON_LAB_TEST_WORKER;
  try {
    return new RunPool({ threads });
  } finally {
    if (bundle !== undefined) process.env.PERCEPTRON_LAB_TEST_WORKER = bundle;
  }
}

describe("RunPool (TypeScript worker, loaded through tsx)", () => {
  const pool = poolThroughTsx(2);
  afterAll(() => pool.close());

  it("returns the rows of a batch in order, equal to the in-process rows, with their table lines", async () => {
    const batch: RunBatch = { settings: TEST_SETTINGS, ranges: [{ point: planted, from: 0, to: 2 }, { point: hadamard, from: 1, to: 2 }] };
    const specs = batchSpecs(batch);
    expect(specs.map((spec) => [spec.run, spec.point, spec.repeat])).toEqual([[0, 0, 0], [1, 0, 1], [3, 1, 1]]);
    const rows = specs.map((spec) => executeRun(spec));
    expect(settled(await pool.run(batch))).toEqual(batchOutput(rows));
    // A sweep that keeps runs.parquet only asks for no runs.csv lines: the thread does not format them.
    const jsonlOnly = { jsonl: true, csv: false };
    const output = settled(await pool.run({ ...batch, tables: jsonlOnly }));
    expect(output).toEqual(batchOutput(rows, { tables: jsonlOnly }));
    expect(output.lines.csv.length).toBe(0);
  });

  it("turns a run that throws into an error row and runs the rest", async () => {
    const batch: RunBatch = { settings: TEST_SETTINGS, ranges: [{ point: bogus, from: 0, to: 1 }, { point: planted, from: 1, to: 2 }] };
    const [failed, ok] = batchSpecs(batch);
    const { digest, lines } = settled(await pool.run(batch));
    expect(digest.notable).toEqual([executeRunSafely(failed!)]);
    expect(digest.notable[0]).toMatchObject({ status: "error", error: expect.stringContaining("bogus") });
    const text = new TextDecoder();
    expect({ jsonl: text.decode(lines.jsonl), csv: text.decode(lines.csv) }).toEqual(runLines([digest.notable[0]!, executeRun(ok!)]));
  });
});

describe("RunPool with short batches (each thread holds its next one)", () => {
  const pool = new RunPool({ threads: 2, shortBatches: true });
  afterAll(() => pool.close());

  it("answers every batch with its own output, however many are in flight", async () => {
    const batches: RunBatch[] = Array.from({ length: 12 }, (_, k) => ({ settings: TEST_SETTINGS, ranges: [{ point: k % 2 === 0 ? planted : hadamard, from: k % 2, to: 2 }] }));
    const outputs = await Promise.all(batches.map((batch) => pool.run(batch)));
    expect(outputs.map(settled)).toEqual(batches.map((batch) => batchOutput(batchSpecs(batch).map((spec) => executeRunSafely(spec)))));
  });
});

describe("RunPool's output rings", () => {
  const pool = new RunPool({ threads: 1 });
  afterAll(() => pool.close());

  it("hands batches over in a thread's ring, each held output in a slot of its own, the rest in their messages, and their bytes their own after a release", async () => {
    const batches: RunBatch[] = Array.from({ length: 12 }, (_, k) => ({ settings: TEST_SETTINGS, ranges: [{ point: k % 2 === 0 ? planted : hadamard, from: k % 2, to: 2 }] }));
    const expected = batches.map((batch) => batchOutput(batchSpecs(batch).map((spec) => executeRunSafely(spec))));
    // None released while all twelve are held: a ring lends each of its eight slots once, the rest travel in
    // their messages. (Which ring formats a batch is the pool's scheduling, and a thread piscina starts anew has
    // a ring of its own: the invariant is per ring, not a pattern over the batches, which a loaded machine moved.)
    const held = await Promise.all(batches.map((batch) => pool.run(batch)));
    const inRing = (output: BatchOutput) => output.lines.jsonl.buffer instanceof SharedArrayBuffer;
    const slots = new Map<ArrayBufferLike, Set<number>>();
    for (const output of held.filter(inRing)) slots.set(output.lines.jsonl.buffer, (slots.get(output.lines.jsonl.buffer) ?? new Set()).add(output.lines.jsonl.byteOffset));
    // The ring is used (which outputs land in it is the pool's scheduling: on a loaded machine, beside CI's other
    // tiers, even some of the first eight came in their messages).
    expect(held.some(inRing)).toBe(true);
    // Every held output in a slot of its own, and no ring past its slots.
    expect([...slots.values()].reduce((sum, own) => sum + own.size, 0)).toBe(held.filter(inRing).length);
    for (const own of slots.values()) expect(own.size).toBeLessThanOrEqual(RING_SLOTS);
    expect(held.filter((output) => !inRing(output)).length).toBeGreaterThanOrEqual(held.length - RING_SLOTS * slots.size);
    expect(held.map(settled)).toEqual(expected);
    // Released (by settled): the next batches find free slots again, and what they write is their own.
    const again = await Promise.all(batches.slice(0, 3).map((batch) => pool.run(batch)));
    expect(again.map(settled)).toEqual(expected.slice(0, 3));
  });

  it("sends a batch larger than a slot in its message", async () => {
    // Without the max-margin separator: the lines' size is what matters here, not the bounds in them.
    const tiny = sweepPoint(3, pointParameters({ n: 10, d: 2 }), 1000);
    const batch: RunBatch = { settings: { ...TEST_SETTINGS, optimal: false }, ranges: [{ point: tiny, from: 0, to: 1000 }] };
    const output = await pool.run(batch);
    expect(output.lines.jsonl.length + output.lines.csv.length + output.digest.values.length * 8).toBeGreaterThan(RING_SLOT_BYTES);
    expect(output.lines.jsonl.buffer instanceof SharedArrayBuffer).toBe(false);
    // Compared as text and plain numbers: a deep equality over a megabyte's typed arrays takes seconds.
    const plain = ({ lines, digest }: BatchOutput) => ({ jsonl: Buffer.from(lines.jsonl).toString(), csv: Buffer.from(lines.csv).toString(), digest: { ...digest, values: [...digest.values] } });
    expect(plain(settled(output))).toEqual(plain(batchOutput(batchSpecs(batch).map((spec) => executeRunSafely(spec)))));
  });
});

describe("RunPool's exporters", () => {
  it("give the same output whether exporter threads format the workers' rows or the workers do (no exporter)", async () => {
    const batch: RunBatch = { settings: TEST_SETTINGS, ranges: [{ point: planted, from: 0, to: 2 }, { point: hadamard, from: 0, to: 2 }, { point: bogus, from: 0, to: 1 }] };
    const expected = batchOutput(batchSpecs(batch).map((spec) => executeRunSafely(spec)));
    for (const exporters of [0, 1, 2]) {
      const pool = new RunPool({ threads: 1, exporters });
      try {
        // Several batches at once: they come back in order, each whole.
        const outputs = await Promise.all([batch, batch, { ...batch, tables: { jsonl: true, csv: false } }].map((b) => pool.run(b)));
        expect(outputs.slice(0, 2).map(settled)).toEqual([expected, expected]);
        expect(settled(outputs[2]!).lines).toEqual({ jsonl: expected.lines.jsonl, csv: new Uint8Array(0) });
      } finally {
        await pool.close();
      }
    }
  });

  it("are one for every three workers, as many as the workers leave cores free", () => {
    expect([1, 2, 3, 4, 8, 12, 16].map((threads) => exporterThreads(threads, 16))).toEqual([1, 1, 1, 2, 3, 4, 0]);
    expect([1, 2].map((threads) => exporterThreads(threads, 2))).toEqual([1, 0]);
  });
});
