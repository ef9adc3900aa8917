import { afterAll, describe, expect, it } from "vitest";
import { runLines } from "../../src/export/run-lines.js";
import { RunPool } from "../../src/pool/run-pool.js";
import { executeRun } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { runSpec } from "../helpers.js";

const spec = (run: number, overrides: Partial<RunSpec> = {}): RunSpec =>
  runSpec({ run, point: run, seed: 1000 + run, n: 40, d: 3, order: "shuffle", maxEpochs: 10_000, ...overrides });

describe("RunPool (TypeScript worker, loaded through tsx)", () => {
  const pool = new RunPool({ threads: 2 });
  afterAll(() => pool.close());

  it("returns the rows of a batch in order, equal to the in-process rows, with their table lines", async () => {
    const batch = [spec(0), spec(1), spec(2, { generator: "hadamard", n: 8, d: 7, margin: null, radius: null, offset: null })];
    const rows = batch.map(executeRun);
    expect(await pool.run(batch)).toEqual({ rows, lines: runLines(rows) });
  });

  it("turns a run that throws into an error row and runs the rest", async () => {
    const { rows } = await pool.run([spec(0, { init: "bogus" }), spec(1)]);
    expect(rows.map((row) => row.status)).toEqual(["error", "ok"]);
    expect(rows[1]).toEqual(executeRun(spec(1)));
  });
});
