import { readdirSync } from "node:fs";
import fc from "fast-check";
import { join } from "node:path";
import { SpillFolder } from "../../src/aggregate/spill-folder.js";
import { describe, expect, it } from "vitest";
import { PointAccumulator } from "../../src/aggregate/point-accumulator.js";
import { DIGEST_WIDTH, digestRows } from "../../src/aggregate/run-digest.js";
import { CHUNK, ValueColumn } from "../../src/aggregate/value-column.js";
import { executeRun } from "../../src/run/execute-run.js";
import { runSpec, temporaryFolder } from "../helpers.js";

const parent = temporaryFolder("perceptron-lab-spill-test-");
const spill = new SpillFolder(parent, ".spill-");
const spillFile = () => spill.create();
/** The spill folder's files (none once the folder is disposed). */
const spillFiles = () => readdirSync(parent).flatMap((folder) => readdirSync(join(parent, folder)));

describe("ValueColumn", () => {
  it("gives back every value in order, from memory and from its spill file, then removes the file", () => {
    let path = "";
    const column = new ValueColumn(() => {
      const file = spillFile();
      path = file.path;
      return file;
    }, CHUNK);
    const count = 5 * CHUNK + 123;
    for (let i = 0; i < count; i++) column.push(i * 0.5 - 7);
    expect(column.length).toBe(count);
    expect(path).not.toBe("");
    const values = column.values();
    expect(values.length).toBe(count);
    expect(values.every((value, i) => value === i * 0.5 - 7)).toBe(true);
    // Into a buffer of the caller's, at its start; one too short is refused.
    const buffer = new Float64Array(count + 10).fill(99);
    expect(column.values(buffer)).toEqual(values);
    expect(buffer.subarray(0, count)).toEqual(values);
    expect(buffer[count]).toBe(99);
    expect(() => column.values(new Float64Array(count - 1))).toThrow(RangeError);
    column.dispose();
    expect(spillFiles()).toEqual([]);
  });

  it("gives back the values pushed, in order, at every length and spill threshold (chunks growing from 8 values to CHUNK)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 3 * CHUNK }), fc.integer({ min: 1, max: 2 * CHUNK }), (count, spillAfter) => {
        const column = new ValueColumn(spillFile, spillAfter);
        const pushed = Float64Array.from({ length: count }, (_, i) => Math.sin(i) * 1e3);
        for (const value of pushed) column.push(value);
        const length = column.length;
        const values = column.values();
        column.dispose();
        return length === count && values.length === count && values.every((value, i) => value === pushed[i]);
      }),
      { numRuns: 60 },
    );
    expect(spillFiles()).toEqual([]);
  });

  it("pushStrided keeps the same values in the same order as pushing them one by one", () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 700 }), { maxLength: 12 }), fc.integer({ min: 1, max: 5 }), fc.integer({ min: 1, max: 3000 }), (counts, stride, spillAfter) => {
        const one = new ValueColumn(spillFile, spillAfter);
        const strided = new ValueColumn(spillFile, spillAfter);
        let next = 0;
        for (const count of counts) {
          const offset = next % stride;
          const values = Float64Array.from({ length: offset + count * stride }, (_, i) => Math.cos(next + i) * 1e3);
          for (let k = 0; k < count; k++) one.push(values[offset + k * stride]!);
          strided.pushStrided(values, offset, stride, count);
          next += count;
        }
        const [a, b, length] = [one.values(), strided.values(), strided.length];
        one.dispose();
        strided.dispose();
        return length === next && a.length === next && b.length === next && a.every((value, i) => Object.is(value, b[i]));
      }),
      { numRuns: 60 },
    );
    expect(spillFiles()).toEqual([]);
  });
});

describe("PointAccumulator", () => {
  it("summarises a point the same whether its values stay in memory or spill to files", () => {
    const base = executeRun(runSpec({ generator: "hadamard", n: 8, d: 7, margin: null, radius: null, offset: null }));
    const rows = Array.from({ length: 3 * CHUNK + 17 }, (_, i) => ({
      ...base,
      run: i,
      repeat: i,
      updates: (i * 7919) % 1000,
      bestRatio: ((i * 104729) % 997) / 997,
      converged: i % 11 !== 0,
      status: i % 101 === 0 ? ("error" as const) : ("ok" as const),
    }));
    const digest = digestRows(rows);
    const inMemory = new PointAccumulator(digest.heads[0]!, spillFile, Number.MAX_SAFE_INTEGER);
    const spilling = new PointAccumulator(digest.heads[0]!, spillFile, CHUNK);
    for (let k = 0; k < digest.count; k++) {
      inMemory.add(digest.values, k * DIGEST_WIDTH);
      spilling.add(digest.values, k * DIGEST_WIDTH);
    }
    expect(spillFiles().length).toBeGreaterThan(0);
    const expected = inMemory.summary();
    expect(spilling.summary()).toEqual(expected);
    expect(spillFiles()).toEqual([]);
    expect(expected).toMatchObject({ runs: rows.length, errors: rows.filter((row) => row.status === "error").length });
    expect(expected.converged).toBe(rows.filter((row) => row.status === "ok" && row.converged).length);
  });

  it("adds a stretch of runs at once as it adds them one by one, whether every run converged or not", () => {
    const base = executeRun(runSpec({ generator: "hadamard", n: 8, d: 7, margin: null, radius: null, offset: null }));
    // Stretches of 256 runs: the first all ok and converged (a column at a time), the next with a run that
    // did not converge, the next with a failed one (run by run), then a short one; NaN (null) values too.
    const rows = Array.from({ length: 3 * 256 + 40 }, (_, i) => ({
      ...base,
      run: i,
      repeat: i,
      updates: (i * 7919) % 1000,
      bestRatio: i % 13 === 0 ? null : ((i * 104729) % 997) / 997,
      violations: i % 37 === 0 ? 1 : 0,
      optimalStatus: i % 29 === 0 ? ("inexact" as const) : ("off" as const),
      converged: i !== 300,
      status: i === 600 ? ("error" as const) : ("ok" as const),
    }));
    const digest = digestRows(rows);
    const oneByOne = new PointAccumulator(digest.heads[0]!, spillFile, 200);
    const stretches = new PointAccumulator(digest.heads[0]!, spillFile, 200);
    for (let k = 0; k < digest.count; k++) oneByOne.add(digest.values, k * DIGEST_WIDTH);
    for (let k = 0; k < digest.count; k += 256) stretches.addRuns(digest.values, k * DIGEST_WIDTH, Math.min(256, digest.count - k));
    const expected = oneByOne.summary();
    expect(stretches.summary()).toEqual(expected);
    expect(expected).toMatchObject({
      runs: rows.length,
      errors: 1,
      converged: rows.length - 2,
      violations: rows.filter((row) => row.violations > 0).length,
      notOptimal: rows.filter((row) => row.optimalStatus === "inexact").length,
    });
    expect(spillFiles()).toEqual([]);
  });
});
