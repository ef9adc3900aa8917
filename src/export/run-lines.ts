import type { RunRow } from "../run/run-types.js";
import { csvField } from "./csv-line.js";
import { checkedRecord } from "./record-check.js";
import { RUN_COLUMNS } from "./run-columns.js";

/** The lines of a batch of rows in runs.jsonl and runs.csv, in order ("" for a table not asked for). */
export interface RunLines {
  readonly jsonl: string;
  readonly csv: string;
}

/** Which run tables a folder writes, and so which lines are formatted: runs.jsonl, runs.csv. */
export interface RunTables {
  readonly jsonl: boolean;
  readonly csv: boolean;
}

export const BOTH_RUN_TABLES: RunTables = { jsonl: true, csv: true };

/** Each key of a runs.jsonl line with what precedes it: `{"run":`, `,"grid":`, … */
const JSON_KEYS = RUN_COLUMNS.map((column, k) => `${k === 0 ? "{" : ","}${JSON.stringify(column)}:`);

/**
 * Formats a batch of rows for both run tables. The pool's workers call it, so that formatting (about as
 * costly as writing) runs on every thread instead of the one coordinator (see BatchOutput).
 *
 * Each number is formatted once for both tables: its shortest round-trip form, which is what
 * JSON.stringify writes for a finite number (non-finite ones are null in JSON, empty in CSV). A jsonl
 * line is the row's keys in RUN_COLUMNS order, exactly `JSON.stringify(row, RUN_COLUMNS)`; a CSV line is
 * what csvLines writes. test/export/exporters.test.ts checks both equalities on random rows. A jsonl
 * line ends with the record's check (see recordCheck): `…,"nonFinite":null,"check":"0123456789abcdef"}`.
 */
export function runLines(rows: readonly RunRow[], { jsonl: withJsonl, csv: withCsv }: RunTables = BOTH_RUN_TABLES): RunLines {
  let jsonl = "";
  let csv = "";
  for (const row of rows) {
    let line = "";
    for (let k = 0; k < RUN_COLUMNS.length; k++) {
      const value = row[RUN_COLUMNS[k]!];
      let json: string;
      let field: string;
      if (typeof value === "number" && Number.isFinite(value)) {
        json = field = String(value);
      } else if (typeof value === "string") {
        json = JSON.stringify(value);
        field = csvField(value);
      } else if (typeof value === "boolean") {
        json = field = value ? "true" : "false";
      } else {
        json = "null";
        field = "";
      }
      if (withJsonl) line += JSON_KEYS[k]! + json;
      if (withCsv) csv += k === 0 ? field : `,${field}`;
    }
    if (withJsonl) jsonl += `${checkedRecord(line)}\n`;
    if (withCsv) csv += "\n";
  }
  return { jsonl, csv };
}
