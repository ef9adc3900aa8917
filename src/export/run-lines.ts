import type { RunRow } from "../run/run-types.js";
import { csvField } from "./csv-line.js";
import { encodeRows, type BinaryRows } from "./binary-rows.js";
import { recordCheck, recordEnd } from "./record-check.js";
import { COLUMN_KIND, type ColumnKind } from "../run/run-columns.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { LineBytes, NUMBER_BYTES, writeAscii, writeBytes, writeNumber } from "./line-bytes.js";

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

/** Each key of a layout's runs.jsonl line with what precedes it, in UTF-8: `{"run":`, `,"grid":`, … (kept a layout). */
function jsonKeys(layout: TableLayout): readonly Uint8Array[] {
  let keys = JSON_KEYS.get(layout);
  if (keys === undefined) JSON_KEYS.set(layout, (keys = layout.columns.map((column, k) => UTF8_ENCODER.encode(`${k === 0 ? "{" : ","}${JSON.stringify(column)}:`))));
  return keys;
}

const JSON_KEYS = new WeakMap<TableLayout, readonly Uint8Array[]>();
const UTF8_ENCODER = new TextEncoder();

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
 * A line is written as bytes (line-bytes.ts), never as a string. Each number is formatted once for both
 * tables: its shortest round-trip form, which is what JSON.stringify writes for a finite number (NaN, null
 * or non-finite, is null in JSON, empty in CSV), written into the JSON line and copied into the CSV line.
 * The columns a row shares with the row before it in the batch (a sweep's rows differ in a fifth of their
 * columns: the point's parameters, the bounds not computed, the outcome's flags are the same) are copied
 * from that row's lines, a stretch of consecutive columns at a time: equal values make equal text. The
 * record check is taken over the line's bytes (a string's check is that of its UTF-8).
 */
export function binaryLineViews({ count, values, texts }: BinaryRows, tables: RunTables = BOTH_RUN_TABLES, layout: TableLayout = BUILT_IN): RunLineBytes {
  const { jsonl: json, csv } = tables;
  const jsonTexts = json ? texts.map((text) => UTF8_ENCODER.encode(JSON.stringify(text))) : [];
  const csvTexts = csv ? texts.map((text) => UTF8_ENCODER.encode(csvField(text))) : [];
  const { width, kinds } = layout;
  const keys = jsonKeys(layout);
  const spans = lineSpans(width);
  // The most a line can take: every field as wide as the widest number or text.
  let widest = NUMBER_BYTES;
  for (const text of jsonTexts) widest = Math.max(widest, text.length);
  for (const text of csvTexts) widest = Math.max(widest, text.length);
  const jsonRoom = keys.reduce((sum, key) => sum + key.length, 0) + width * widest + CHECK_BYTES;
  const csvRoom = width * (widest + 1) + 1;
  let j = 0;
  let c = 0;
  let jsonOut = JSONL.room(0, 0);
  let csvOut = CSV.room(0, 0);
  for (let r = 0, at = 0; r < count; r++, at += width) {
    if (json) jsonOut = JSONL.room(j, jsonRoom);
    if (csv) csvOut = CSV.room(c, csvRoom);
    const start = j;
    let k = 0;
    while (k < width) {
      if (r > 0 && same(values[at + k]!, values[at - width + k]!)) {
        // Columns k … m as the row before wrote them.
        let m = k;
        while (m + 1 < width && same(values[at + m + 1]!, values[at - width + m + 1]!)) m++;
        if (json) j = copySpan(jsonOut, j, spans.json, k, m);
        if (csv) {
          if (k > 0) csvOut[c++] = 44; // ","
          c = copySpan(csvOut, c, spans.csv, k, m);
        }
        k = m + 1;
        continue;
      }
      const value = values[at + k]!;
      if (json) {
        spans.json[2 * k] = j;
        j = writeBytes(jsonOut, j, keys[k]!);
      }
      if (csv) {
        if (k > 0) csvOut[c++] = 44;
        spans.csv[2 * k] = c;
      }
      if (value !== value || value === Infinity || value === -Infinity) {
        if (json) j = writeAscii(jsonOut, j, "null");
      } else if (kinds[k] === COLUMN_KIND.text) {
        if (json) j = writeBytes(jsonOut, j, jsonTexts[value]!);
        if (csv) c = writeBytes(csvOut, c, csvTexts[value]!);
      } else if (json) {
        const from = j;
        j = writeScalar(jsonOut, j, kinds[k]!, value);
        if (csv) for (let q = from; q < j; q++) csvOut[c++] = jsonOut[q]!;
      } else if (csv) {
        c = writeScalar(csvOut, c, kinds[k]!, value);
      }
      if (json) spans.json[2 * k + 1] = j;
      if (csv) spans.csv[2 * k + 1] = c;
      k++;
    }
    if (json) {
      j = writeAscii(jsonOut, j, recordEnd(recordCheck(jsonOut.subarray(start, j))));
      jsonOut[j++] = 10; // "\n"
    }
    if (csv) csvOut[c++] = 10;
    // A typed array drops writes past its end without a word: a line longer than its room would be cut silently.
    if (j > jsonOut.length || c > csvOut.length) throw new RangeError(`run line ${r} outgrew its room (${j} > ${jsonOut.length} or ${c} > ${csvOut.length})`);
  }
  return { jsonl: JSONL.view(j), csv: CSV.view(c) };
}

/** A finite number or a boolean (1 or 0) at `at`, as both tables write it; returns the byte after it. */
function writeScalar(out: Uint8Array, at: number, kind: ColumnKind, value: number): number {
  return kind === COLUMN_KIND.number ? writeNumber(out, at, value) : writeAscii(out, at, value === 1 ? "true" : "false");
}

/** Equal values, NaN (null) included: equal text. (−0 and 0 are both "0".) */
function same(a: number, b: number): boolean {
  return a === b || (a !== a && b !== b);
}

/** Where each column's text lies in the line written last: [start, end) a column, in runs.jsonl (its key and value) and runs.csv (its field). */
interface LineSpans {
  readonly json: Int32Array;
  readonly csv: Int32Array;
}

function lineSpans(width: number): LineSpans {
  if (SPANS.json.length !== 2 * width) SPANS = { json: new Int32Array(2 * width), csv: new Int32Array(2 * width) };
  return SPANS;
}

let SPANS: LineSpans = { json: new Int32Array(0), csv: new Int32Array(0) };

/** Columns k … m of the line written last, copied to `at` within the same buffer; their spans moved there. Returns the byte after them. */
function copySpan(out: Uint8Array, at: number, spans: Int32Array, k: number, m: number): number {
  const from = spans[2 * k]!;
  const to = spans[2 * m + 1]!;
  out.copyWithin(at, from, to);
  const shift = at - from;
  for (let q = 2 * k; q <= 2 * m + 1; q++) spans[q]! += shift;
  return at + to - from;
}

/** What a record's end takes: `,"check":"` (10), 16 hex digits, `"}` and the newline. */
const CHECK_BYTES = 29;

/** This thread's buffers of binaryLineViews. */
const JSONL = new LineBytes();
const CSV = new LineBytes();
