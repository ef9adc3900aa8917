import { cpSync, existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { A_POSTERIORI_COLUMNS, RUN_COLUMNS } from "../../src/run/run-columns.js";
import { RunsParquetReader } from "../../src/export/runs-parquet-reader.js";
import { writeReport } from "../../src/report/write-report.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { temporaryFolder } from "../helpers.js";

const FOLDER = "test/fixtures/result-0.9";

describe("a result folder of perceptron-lab 0.9 (before the a-posteriori columns)", () => {
  it("is read as it is: its runs without those columns, its summary with their statistics empty", () => {
    const folder = readResultFolder(FOLDER);
    const rows = [...folder.runs()];
    expect(rows.map((row) => row.updates)).toEqual([...new RunsParquetReader(join(FOLDER, "runs.parquet"))].map((row) => row.updates));
    expect(rows).toHaveLength(4);
    for (const summary of folder.summary) {
      for (const column of A_POSTERIORI_COLUMNS) expect(summary[column], column).toMatchObject({ median: null, mean: null, max: null });
    }
  });

  it("runs.parquet of 0.9 reads with the a-posteriori columns null and every other column as its runs.jsonl has it", () => {
    const parquet = [...new RunsParquetReader(join(FOLDER, "runs.parquet"))];
    const jsonl = [...readResultFolder(FOLDER).runs()];
    parquet.forEach((row, k) => {
      const record = row as unknown as Record<string, unknown>;
      for (const column of RUN_COLUMNS) {
        if ((A_POSTERIORI_COLUMNS as readonly string[]).includes(column)) expect(record[column], column).toBeNull();
        else expect(record[column], column).toEqual((jsonl[k] as unknown as Record<string, unknown>)[column]);
      }
    });
  });

  it("gets a report from this version", async () => {
    const copy = temporaryFolder();
    cpSync(FOLDER, copy, { recursive: true });
    await writeReport(copy);
    expect(existsSync(join(copy, "report.html"))).toBe(true);
  });
});
