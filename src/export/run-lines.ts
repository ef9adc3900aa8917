import type { RunRow } from "../run/run-types.js";
import { csvField } from "./csv-line.js";
import { checkedRecord, recordCheck, recordEnd } from "./record-check.js";
import { RUN_COLUMNS } from "./run-columns.js";
import { Utf8Lines } from "./utf8-lines.js";

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
 * Formats a batch of rows for both run tables, as text (see runLineBytes for the workers' UTF-8).
 *
 * Each number is formatted once for both tables: its shortest round-trip form, which is what
 * JSON.stringify writes for a finite number (non-finite ones are null in JSON, empty in CSV). A jsonl
 * line is the row's keys in RUN_COLUMNS order, exactly `JSON.stringify(row, RUN_COLUMNS)`; a CSV line is
 * what csvLines writes. test/export/exporters.test.ts checks both equalities on random rows. A jsonl
 * line ends with the record's check (see recordCheck): `…,"nonFinite":null,"check":"0123456789abcdef"}`.
 */
export function runLines(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES): RunLines {
  let jsonl = "";
  let csv = "";
  for (const row of rows) {
    const { body, line } = formatRow(row, tables);
    if (tables.jsonl) jsonl += `${checkedRecord(body)}\n`;
    if (tables.csv) csv += `${line}\n`;
  }
  return { jsonl, csv };
}

/**
 * A batch's lines of both run tables as UTF-8 (empty for a table not asked for), encoded where they were
 * formatted (in the workers): the coordinator hands the bytes to the files as they come, and never turns
 * text into bytes itself (that, and the garbage of the strings, was most of its cost per run). Plain
 * Uint8Arrays, not Buffers, which arrive from a thread as Uint8Arrays anyway: the same type on both sides.
 */
export interface RunLineBytes {
  readonly jsonl: Uint8Array;
  readonly csv: Uint8Array;
}

/**
 * The bytes of runLines' text, UTF-8: what the pool's workers send. Each line is encoded as it is
 * formatted and its record check taken over those bytes (a string's check is that of its UTF-8), which
 * spares joining a batch's lines into one string and encoding that: a small run's lines and check took
 * ~13 µs instead of ~17 (scratch loop over 1 000 rows, min of 12 alternations).
 */
export function runLineBytes(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES): RunLineBytes {
  const { jsonl, csv } = runLineViews(rows, tables);
  return { jsonl: jsonl.slice(), csv: csv.slice() };
}

/** runLineBytes' bytes as views of this thread's buffers, valid until its next call (for a worker's ring, which copies them). */
export function runLineViews(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES): RunLineBytes {
  for (const row of rows) {
    const { body, line } = formatRow(row, tables);
    if (tables.jsonl) {
      const start = JSONL.length;
      JSONL.append(body);
      JSONL.append(`${recordEnd(recordCheck(JSONL.since(start)))}\n`);
    }
    if (tables.csv) CSV.append(`${line}\n`);
  }
  return { jsonl: JSONL.take(), csv: CSV.take() };
}

/** This thread's buffers of runLineViews. */
const JSONL = new Utf8Lines();
const CSV = new Utf8Lines();

/** A row's runs.jsonl record before its check (`body`) and its runs.csv line, without newlines ("" where not asked for). */
function formatRow(row: RunRow, tables: RunTables): { body: string; line: string } {
  let body = "";
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
    if (tables.jsonl) body += JSON_KEYS[k]! + json;
    if (tables.csv) line += k === 0 ? field : `,${field}`;
  }
  return { body, line };
}
