import { createHash } from "node:crypto";
import { stringify } from "csv-stringify/sync";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { summarisePoint } from "../../src/aggregate/summarise-point.js";
import { CSV_OPTIONS, csvLine, csvLines, type CsvValue } from "../../src/export/csv-line.js";
import { COLUMN_KIND, RUN_COLUMN_KINDS, RUN_COLUMNS } from "../../src/run/run-columns.js";
import { encodeRows } from "../../src/export/binary-rows.js";
import { checkedRecord, recordProblem } from "../../src/export/record-check.js";
import { runLineBytes, runLines } from "../../src/export/run-lines.js";
import { runsCsvHeader } from "../../src/export/runs-csv.js";
import { flattenSummary, summaryCsvHeader } from "../../src/export/summary-csv.js";
import { summaryJsonEnd, summaryJsonItem } from "../../src/export/summary-json.js";
import { summaryTable } from "../../src/export/summary-table.js";
import { errorRow, executeRun } from "../../src/run/execute-run.js";
import type { RunRow, RunSpec } from "../../src/run/run-types.js";
import { runSpec, STRUCTURED } from "../helpers.js";

const spec: RunSpec = runSpec({ run: 3, point: 1, seed: 99, generator: "hadamard", n: 4, d: 3, ...STRUCTURED, eta: 0.5, maxEpochs: 100 });

describe("csvLine", () => {
  it("writes RFC 4180 fields: shortest round-trip numbers, true/false, empty for null and non-finite", () => {
    expect(csvLine([0.1, 1e-7, 123456789012345, true, false, null, Infinity, NaN, 'say "hi", twice'])).toBe(
      '0.1,1e-7,123456789012345,true,false,,,,"say ""hi"", twice"\n',
    );
  });

  it("writes the same lines as csv-stringify given whole records, texts with quotes, separators and newlines included", () => {
    const text = fc.oneof(fc.string(), fc.constantFrom("", " a", "a,b", 'a"b', "a\nb", "a\rb", "\r\n", "é,\"", "null"));
    const value: fc.Arbitrary<CsvValue> = fc.oneof(text, fc.double(), fc.integer(), fc.boolean(), fc.constant(null));
    fc.assert(
      fc.property(fc.array(fc.array(value, { maxLength: 8 }), { maxLength: 6 }), (records) => {
        // Twice: the second call takes the remembered text fields.
        expect(csvLines(records)).toBe(stringify(records, CSV_OPTIONS));
        expect(csvLines(records)).toBe(stringify(records, CSV_OPTIONS));
      }),
      { numRuns: 500 },
    );
  });
});

const runJsonLine = (row: RunRow) => runLines([row]).jsonl;

/** Random rows whose columns hold what their kind allows (RUN_COLUMN_KINDS), or null. */
function rowOfKinds({ number, text }: { number: fc.Arbitrary<number>; text: fc.Arbitrary<string> }): fc.Arbitrary<RunRow> {
  const kinds = { [COLUMN_KIND.number]: number, [COLUMN_KIND.boolean]: fc.boolean(), [COLUMN_KIND.text]: text };
  const values = RUN_COLUMNS.map((_, k) => fc.oneof(kinds[RUN_COLUMN_KINDS[k]!] as fc.Arbitrary<unknown>, fc.constant(null)));
  return fc.tuple(...values).map((drawn) => Object.fromEntries(RUN_COLUMNS.map((column, k) => [column, drawn[k]])) as unknown as RunRow);
}
/** Both tables' bytes in hexadecimal: compared as strings, ~100× faster than byte by byte. */
const hexOf = ({ jsonl, csv }: { jsonl: Uint8Array; csv: Uint8Array }) => ({ jsonl: Buffer.from(jsonl).toString("hex"), csv: Buffer.from(csv).toString("hex") });

describe("runs.csv and runs.jsonl", () => {
  it("have the same columns in the same order, every key of a row", () => {
    const row = executeRun(spec);
    // runs.jsonl: the columns, then the record's check.
    expect(Object.keys(JSON.parse(runJsonLine(row)))).toEqual([...RUN_COLUMNS, "check"]);
    expect(new Set(RUN_COLUMNS)).toEqual(new Set(Object.keys(row)));
    expect(new Set(RUN_COLUMNS)).toEqual(new Set(Object.keys(errorRow(spec, "x"))));
    expect(runsCsvHeader().trimEnd().split(",")).toEqual(RUN_COLUMNS);
  });

  it("write a hadamard run as expected", () => {
    const line = runLines([executeRun(spec)]).csv;
    // run … (data: empty, a generated family; margin to c empty) … order, status, error, converged, updates 4, epochs 2,
    // mistakes 4 in the first epoch and 0 in the last, no final or pocket error, expectedUpdates 4, R̂ = 2, separable,
    // nothing on the wrong side, γ̂ = 1, optimalStatus, γ* = 1, then the planted bounds: Novikoff = Snapp = 4, Hu = 25/4,
    // N = 4, best 4; the same for the max-margin separator; tightest Hu and N(v) = the max-margin ones from ŵ(0) = 0,
    // best 4; then Freund–Schapire, (R/γ)² = 4 at u = ŵ*, γ = 1, D₁ = 0, raised by the a-priori error of its dot products.
    expect(line.startsWith("3,0,1,0,99,hadamard,,4,3,,,,,,,true,0.5,zero,cyclic,ok,,true,4,2,4,0,0,0,4,2,true,0,1,optimal,1,4,4,6.25,4,4,4,4,6.25,4,4,6.25,4,4,4.00000000000001,4.00000000000001,")).toBe(true);
    expect(JSON.parse(runJsonLine(errorRow(spec, "boom")))).toMatchObject({ status: "error", error: "boom", updates: null });
  });

  it("format each row as JSON.stringify(row, RUN_COLUMNS) with its check, and as csv-stringify would, on random rows", () => {
    const row = rowOfKinds({
      number: fc.oneof(fc.double(), fc.integer(), fc.constantFrom(-0, Infinity, -Infinity, NaN, 2 ** 53 - 1)),
      text: fc.oneof(fc.string(), fc.constantFrom('a,"b"\n', "é", "=1+1", "-x", "null", "true")),
    });
    fc.assert(
      fc.property(fc.array(row, { maxLength: 4 }), (rows) => {
        const records = rows.map((r) => RUN_COLUMNS.map((column) => r[column] as CsvValue));
        expect(runLines(rows)).toEqual({
          jsonl: rows.map((r) => `${checkedRecord(JSON.stringify(r, RUN_COLUMNS as string[]).slice(0, -1))}\n`).join(""),
          csv: stringify(records, CSV_OPTIONS),
        });
      }),
      { numRuns: 300 },
    );
  });

  it("copy what a row shares with the row before it, and give the same lines as rows of their own, for every choice of tables", () => {
    // Few values a column (−0 beside 0, NaN, ∞, texts, booleans, null): consecutive rows share stretches of columns.
    const row = rowOfKinds({ number: fc.constantFrom(0, -0, 1, 2.5, -7, 1e21, 5e-324, NaN, Infinity, 123456789012), text: fc.constantFrom("a", 'b,"c"', "é", "=x") });
    fc.assert(
      fc.property(fc.array(row, { minLength: 2, maxLength: 12 }), fc.boolean(), fc.boolean(), (rows, jsonl, csv) => {
        const records = rows.map((r) => RUN_COLUMNS.map((column) => r[column] as CsvValue));
        const nonFinite = (value: unknown) => (typeof value === "number" && !Number.isFinite(value) ? null : value);
        expect(runLines(rows, { jsonl, csv })).toEqual({
          jsonl: jsonl ? rows.map((r) => `${checkedRecord(JSON.stringify(r, RUN_COLUMNS as string[]).slice(0, -1))}\n`).join("") : "",
          csv: csv ? stringify(records.map((record) => record.map(nonFinite)), CSV_OPTIONS) : "",
        });
        // Each row alone (nothing to copy from) gives its own line of the batch's.
        const alone = rows.map((r) => runLines([r], { jsonl, csv }));
        expect(runLines(rows, { jsonl, csv })).toEqual({ jsonl: alone.map((lines) => lines.jsonl).join(""), csv: alone.map((lines) => lines.csv).join("") });
      }),
      { numRuns: 300 },
    );
  });

  it("make room for lines of the widest numbers, whatever the batch's length", () => {
    // String(−1.2345678901234567e-6) is "-0.0000012345678901234567": 25 characters, the most a double takes.
    const widest = -1.2345678901234567e-6;
    expect(String(widest)).toHaveLength(25);
    const row = Object.fromEntries(RUN_COLUMNS.map((column, k) => [column, RUN_COLUMN_KINDS[k] === COLUMN_KIND.number ? widest * (1 + k * 2 ** -40) : RUN_COLUMN_KINDS[k] === COLUMN_KIND.boolean ? false : "x"])) as unknown as RunRow;
    // Every row's numbers differ from the row before's (nothing copied), so that each line is as long as it gets.
    const rows = Array.from({ length: 64 }, (_, r) => Object.fromEntries(Object.entries(row).map(([column, value]) => [column, typeof value === "number" ? value * (1 + r * 2 ** -30) : value])) as unknown as RunRow);
    for (let count = 1; count <= rows.length; count++) {
      const batch = rows.slice(0, count);
      expect(runLines(batch).jsonl).toBe(batch.map((r) => `${checkedRecord(JSON.stringify(r, RUN_COLUMNS as string[]).slice(0, -1))}\n`).join(""));
    }
  });

  it("as bytes (the workers'), are runLines' text in UTF-8, lone surrogates as U+FFFD, for every choice of tables", () => {
    const row = rowOfKinds({ number: fc.oneof(fc.double(), fc.constant(NaN)), text: fc.oneof(fc.string({ unit: "binary" }), fc.constantFrom("é ✓", "\ud800", "a\udfffb", "😀")) });
    const utf8 = new TextEncoder();
    fc.assert(
      fc.property(fc.array(row, { maxLength: 4 }), fc.boolean(), fc.boolean(), (rows, jsonl, csv) => {
        const text = runLines(rows, { jsonl, csv });
        expect(hexOf(runLineBytes(rows, { jsonl, csv }))).toEqual(hexOf({ jsonl: utf8.encode(text.jsonl), csv: utf8.encode(text.csv) }));
      }),
      { numRuns: 120 },
    );
    // A batch larger than the buffer's first 64 KiB grows it, and the next batch starts afresh.
    const many = Array.from({ length: 200 }, () => executeRun(spec));
    const text = runLines(many);
    expect(text.jsonl.length).toBeGreaterThan(1 << 16);
    expect(hexOf(runLineBytes(many))).toEqual(hexOf({ jsonl: utf8.encode(text.jsonl), csv: utf8.encode(text.csv) }));
    expect(runLineBytes(many.slice(0, 1))).toEqual({ jsonl: utf8.encode(runLines(many.slice(0, 1)).jsonl), csv: utf8.encode(runLines(many.slice(0, 1)).csv) });
  });
  it("are formatted from rows as numbers (binary rows), which refuse a value their column's kind cannot hold", () => {
    const row = executeRun(spec);
    expect(() => encodeRows([{ ...row, updates: "4" as unknown as number }])).toThrow("column updates cannot hold string");
    expect(() => encodeRows([{ ...row, converged: 1 as unknown as boolean }])).toThrow("column converged cannot hold number");
    expect(() => encodeRows([{ ...row, generator: 0 as unknown as RunRow["generator"] }])).toThrow("column generator cannot hold number");
    // Each text of a batch is kept once.
    expect(encodeRows([row, row, errorRow(spec, "boom")]).texts).toEqual(["hadamard", "zero", "cyclic", "ok", "optimal", "error", "boom"]);
  });
});

describe("record checks", () => {
  it("end each record with the first 16 hex digits of SHA-256 over the text before them", () => {
    const body = '{"run":0';
    // sha256('{"run":0') computed apart: printf '%s' '{"run":0' | sha256sum
    expect(checkedRecord(body)).toBe(`{"run":0,"check":"${createHash("sha256").update(body).digest("hex").slice(0, 16)}"}`);
    expect(recordProblem(checkedRecord(body))).toBeNull();
  });

  it("tell every change of a record's text, and a record without a check", () => {
    const line = runJsonLine(executeRun(spec)).trimEnd();
    expect(recordProblem(line)).toBeNull();
    expect(recordProblem(line.replace('"updates":4', '"updates":3'))).toBe("does not match its record check: it was changed after it was written");
    expect(recordProblem(line.replace('"converged":true', '"converged":false'))).toBe("does not match its record check: it was changed after it was written");
    expect(recordProblem(line.replace(/,"check":"[0-9a-f]{16}"\}$/, "}"))).toBe("has no record check");
    fc.assert(
      fc.property(fc.nat({ max: line.length - 1 }), fc.string({ minLength: 1, maxLength: 1 }), (at, char) => {
        const changed = line.slice(0, at) + char + line.slice(at + 1);
        return changed === line || recordProblem(changed) !== null;
      }),
      { numRuns: 500 },
    );
  });
});

describe("summary.csv and summary.json", () => {
  it("flatten statistics with dots, the JSON paths", () => {
    const summary = summarisePoint([executeRun(spec)]);
    const keys = flattenSummary(summary).map(([key]) => key);
    expect(keys).toContain("updates.median");
    expect(keys).toContain("plantedNovikoffRatio.p90");
    expect(keys).toContain("plantedHuBound.median");
    expect(summaryCsvHeader(summary).trimEnd().split(",")).toEqual(keys);
  });

  it("make a JSON array whether empty or not", () => {
    const summary = summarisePoint([executeRun(spec)]);
    expect(JSON.parse(summaryJsonEnd(0))).toEqual([]);
    const text = summaryJsonItem(summary, 0) + summaryJsonItem(summary, 1) + summaryJsonEnd(2);
    expect(JSON.parse(text)).toEqual([summary, summary]);
  });
});

describe("summaryTable", () => {
  it("shows median updates beside each median bound", () => {
    const text = summaryTable([summarisePoint([executeRun(spec)])], 1);
    const [header, row] = text.split("\n");
    expect(header!.split(/\s+/)).toEqual([
      ...["point", "generator", "n", "d", "margin", "offset", "bias", "eta", "init", "order", "conv", "updates"],
      ...["novikoff", "snapp", "hu", "optimised", "novikoff*", "snapp*", "hu*", "optimised*", "best"],
    ]);
    // Hadamard n = 4: 4 updates; Novikoff = Snapp = N(0) = 4; Hu = (4 + 1)²/4 = 6.25; the same from the
    // max-margin separator, which is the planted one here.
    expect(row!.split(/\s+/)).toEqual([
      ...["1", "hadamard", "4", "3", "-", "-", "yes", "0.5", "zero", "cyclic", "1/1", "4"],
      ...["4", "4", "6.25", "4", "4", "4", "6.25", "4", "4"],
    ]);
    // No point shown has a margin (Hadamard's column is "-"): no footer about margins (0.12.2 printed it).
    expect(text).not.toContain("margin: the grid point's margin");
    expect(summaryTable([summarisePoint([executeRun(runSpec({ seed: 4 }))])], 1)).toContain("\nmargin: the grid point's margin: planted, the planted margin;");
  });
});
