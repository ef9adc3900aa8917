import type { RunRow } from "../run/run-types.js";
import { csvField } from "./csv-line.js";
import { encodeRows, type BinaryRows } from "./binary-rows.js";
import { recordCheck, recordEnd } from "./record-check.js";
import { COLUMN_KIND } from "./run-columns.js";
import { BUILT_IN, type TableLayout } from "./table-layout.js";
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

/** Each key of a layout's runs.jsonl line with what precedes it: `{"run":`, `,"grid":`, … (kept a layout). */
function jsonKeys(layout: TableLayout): readonly string[] {
  let keys = JSON_KEYS.get(layout);
  if (keys === undefined) JSON_KEYS.set(layout, (keys = layout.columns.map((column, k) => `${k === 0 ? "{" : ","}${JSON.stringify(column)}:`)));
  return keys;
}

const JSON_KEYS = new WeakMap<TableLayout, readonly string[]>();

/**
 * Formats a batch of rows for both run tables, as text: runLineBytes' lines, decoded (see there).
 *
 * A jsonl line is the row's keys in the layout's column order, exactly `JSON.stringify(row, columns)`,
 * ending with the record's check (see recordCheck): `…,"nonFinite":null,"check":"0123456789abcdef"}`; a
 * CSV line is what csvLines writes. test/export/exporters.test.ts checks both equalities on random rows.
 */
export function runLines(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES, layout: TableLayout = BUILT_IN): RunLines {
  const { jsonl, csv } = runLineViews(rows, tables, layout);
  return { jsonl: UTF8.decode(jsonl), csv: UTF8.decode(csv) };
}

const UTF8 = new TextDecoder();

/**
 * A batch's lines of both run tables as UTF-8 (empty for a table not asked for), encoded where they were
 * formatted: the coordinator hands the bytes to the files as they come, and never turns text into bytes
 * itself. Plain Uint8Arrays, not Buffers, which arrive from a thread as Uint8Arrays anyway.
 */
export interface RunLineBytes {
  readonly jsonl: Uint8Array;
  readonly csv: Uint8Array;
}

/** The bytes of a batch's lines (see binaryLineViews), as arrays of their own. */
export function runLineBytes(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES, layout: TableLayout = BUILT_IN): RunLineBytes {
  const { jsonl, csv } = runLineViews(rows, tables, layout);
  return { jsonl: jsonl.slice(), csv: csv.slice() };
}

/** runLineBytes' bytes as views of this thread's buffers, valid until its next call. */
export function runLineViews(rows: readonly RunRow[], tables: RunTables = BOTH_RUN_TABLES, layout: TableLayout = BUILT_IN): RunLineBytes {
  return binaryLineViews(encodeRows(rows, { layout }), tables, layout);
}

/**
 * The lines of binary rows (binary-rows.ts), as views of this thread's buffers valid until its next call:
 * the one formatter of the run tables. An exporter thread formats a worker's rows with it (the workers
 * send numbers, never text), the coordinator the few rows it makes itself (a failed run's, a resumed
 * folder's, a merge's).
 *
 * Each number is formatted once for both tables: its shortest round-trip form, which is what
 * JSON.stringify writes for a finite number (NaN, null or non-finite, is null in JSON, empty in CSV). Each
 * line is encoded as it is formatted and its record check taken over those bytes (a string's check is
 * that of its UTF-8), which spares joining a batch's lines into one string and encoding that.
 */
export function binaryLineViews({ count, values, texts }: BinaryRows, tables: RunTables = BOTH_RUN_TABLES, layout: TableLayout = BUILT_IN): RunLineBytes {
  const jsonTexts = tables.jsonl ? texts.map((text) => JSON.stringify(text)) : [];
  const csvTexts = tables.csv ? texts.map(csvField) : [];
  const { width, kinds } = layout;
  const keys = jsonKeys(layout);
  for (let r = 0, at = 0; r < count; r++, at += width) {
    let body = "";
    let line = "";
    for (let k = 0; k < width; k++) {
      const value = values[at + k]!;
      let json: string;
      let field: string;
      if (value !== value || value === Infinity || value === -Infinity) {
        json = "null";
        field = "";
      } else {
        switch (kinds[k]) {
          case COLUMN_KIND.number:
            json = field = String(value);
            break;
          case COLUMN_KIND.boolean:
            json = field = value === 1 ? "true" : "false";
            break;
          default:
            json = tables.jsonl ? jsonTexts[value]! : "";
            field = tables.csv ? csvTexts[value]! : "";
        }
      }
      if (tables.jsonl) body += keys[k]! + json;
      if (tables.csv) line += k === 0 ? field : `,${field}`;
    }
    if (tables.jsonl) {
      const start = JSONL.length;
      JSONL.append(body);
      JSONL.append(`${recordEnd(recordCheck(JSONL.since(start)))}\n`);
    }
    if (tables.csv) CSV.append(`${line}\n`);
  }
  return { jsonl: JSONL.take(), csv: CSV.take() };
}

/** This thread's buffers of binaryLineViews. */
const JSONL = new Utf8Lines();
const CSV = new Utf8Lines();
