import { describe, expect, it } from "vitest";
import { encodeRows } from "../../src/export/binary-rows.js";
import { RunsParquetWriter } from "../../src/export/runs-parquet-writer.js";
import { ParquetThread } from "../../src/pool/parquet-thread.js";
import { executeRun } from "../../src/run/execute-run.js";
import { BUILT_IN } from "../../src/run/table-layout.js";
import { batchSpecs } from "../../src/sweep/run-batch.js";
import { pointParameters, sweepPoint, TEST_SETTINGS } from "../helpers.js";

describe("ParquetThread", () => {
  it("makes the file a writer on this thread makes from the same rows, in the order given, across row groups", async () => {
    const point = sweepPoint(0, pointParameters({ n: 30, d: 3 }), 60);
    const rows = batchSpecs({ settings: TEST_SETTINGS, ranges: [{ point, from: 0, to: 60 }] }).map((spec) => executeRun(spec));
    const here: Uint8Array[] = [];
    const writer = new RunsParquetWriter((part) => here.push(part.slice()), 16, BUILT_IN, "perceptron-lab");
    writer.add(rows);
    const expected = writer.finish();
    // Many small tasks handed over at once, while the thread starts: Piscina may hand them on out of order.
    const there: Uint8Array[] = [];
    const thread = new ParquetThread({ rowGroup: 16, createdBy: "perceptron-lab" }, (part) => there.push(part.slice()));
    // And a small sweep's, written on this thread (INLINE_PARQUET_RUNS): the same bytes too.
    const inline: Uint8Array[] = [];
    const small = new ParquetThread({ rowGroup: 16, createdBy: "perceptron-lab" }, (part) => inline.push(part.slice()), rows.length);
    for (let at = 0; at < rows.length; at += 3) {
      thread.add(encodeRows(rows.slice(at, at + 3)));
      small.add(encodeRows(rows.slice(at, at + 3)));
    }
    expect(await small.finish()).toEqual(expected);
    expect(Buffer.concat(inline).equals(Buffer.concat(here))).toBe(true);
    await thread.room();
    const digest = await thread.finish();
    await thread.close();
    expect(digest).toEqual(expected);
    expect(Buffer.concat(there).equals(Buffer.concat(here))).toBe(true);
  });

  it("throws a failure of its writes at the next call", async () => {
    const thread = new ParquetThread({ rowGroup: 4, createdBy: "perceptron-lab" }, () => {
      throw new Error("disk full");
    });
    const point = sweepPoint(0, pointParameters({ n: 20, d: 2 }), 8);
    const rows = batchSpecs({ settings: TEST_SETTINGS, ranges: [{ point, from: 0, to: 8 }] }).map((spec) => executeRun(spec));
    thread.add(encodeRows(rows));
    await expect(thread.finish()).rejects.toThrow("disk full");
    await thread.close();
  });
});
