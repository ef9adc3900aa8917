import { parse } from "csv-parse/sync";
import { InputError, readInputFile } from "../experiment/input-error.js";
import type { DataSet } from "../generators/data-set.js";

/** A user's data set, with its feature names in column order. */
export interface CsvDataSet extends DataSet {
  readonly features: readonly string[];
}

export const LABEL_COLUMN = "label";

/**
 * Reads a data CSV: a header row, a `label` column with −1/+1 (or 0/1, 0 meaning −1), every other column
 * a numeric feature. Every malformed input is an InputError naming the file, line and column.
 */
export interface ReadDataOptions {
  /** Accept data whose labels are all the same (the three-point family is such data). */
  readonly oneClass?: boolean;
}

export function readDataCsv(path: string, options: ReadDataOptions = {}): CsvDataSet {
  const text = readInputFile(path, "data file");
  return parseDataCsv(text, path, options);
}

export function parseDataCsv(text: string, path: string, options: ReadDataOptions = {}): CsvDataSet {
  const fail = (message: string): never => {
    throw new InputError(`${path}: ${message}`);
  };
  let records: { record: string[]; info: { lines: number } }[];
  try {
    records = parse(text, { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true, info: true }) as unknown as typeof records;
  } catch (error) {
    const line = (error as { lines?: number }).lines;
    return fail(`${line === undefined ? "" : `line ${line}: `}malformed CSV (${(error as Error).message.replace(/^Invalid [^:]*: /, "")})`);
  }
  const [head, ...rows] = records;
  if (head === undefined) return fail(`the file is empty; expected a header row with a "${LABEL_COLUMN}" column and feature columns`);
  const header = head.record;
  const seen = new Set<string>();
  for (const name of header) {
    if (name === "") fail(`line ${head.info.lines}: the header has an empty column name`);
    if (seen.has(name)) fail(`line ${head.info.lines}: column "${name}" appears twice in the header`);
    seen.add(name);
  }
  const labelIndex = header.indexOf(LABEL_COLUMN);
  if (labelIndex < 0) fail(`no "${LABEL_COLUMN}" column in the header (columns: ${header.join(", ")})`);
  const features = header.filter((_, index) => index !== labelIndex);
  if (features.length === 0) fail(`no feature column besides "${LABEL_COLUMN}"`);
  if (rows.length === 0) fail("no data rows after the header");

  const n = rows.length;
  const d = features.length;
  const x = new Float64Array(n * d);
  const y = new Int8Array(n);
  let zeroOne = false;
  let minusOne = false;
  rows.forEach(({ record, info }, i) => {
    const line = info.lines;
    if (record.length !== header.length) {
      fail(`line ${line} has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${header.length}`);
    }
    let j = 0;
    record.forEach((cell, column) => {
      if (column === labelIndex) {
        const label = parseLabel(cell);
        if (label === null) fail(`line ${line}, column "${LABEL_COLUMN}": ${JSON.stringify(cell)} is not a label; use -1/+1 or 0/1`);
        if (cell.trim() === "0") zeroOne = true;
        if (label === -1 && cell.trim() !== "0") minusOne = true;
        y[i] = label!;
        return;
      }
      const value = cell === "" ? NaN : Number(cell);
      if (!Number.isFinite(value)) {
        const what = cell === "" ? "an empty field" : `${JSON.stringify(cell)}`;
        const rule = /^[+-]?(nan|inf(inity)?)$/i.test(cell) ? "is not a finite number" : "is not a number";
        fail(`line ${line}, column "${header[column]}": ${what} ${cell === "" ? "is not allowed" : rule}`);
      }
      x[i * d + j] = value;
      j++;
    });
  });
  if (zeroOne && minusOne) fail(`column "${LABEL_COLUMN}" mixes 0 and -1 as the negative label; use one convention`);
  if (!options.oneClass && isOneClass(y)) {
    fail(`every label is ${y[0]! > 0 ? "+1" : "-1"}: a classification needs both classes; --one-class accepts such data (the three-point family is one)`);
  }
  return { n, d, x, y, planted: null, features };
}

function parseLabel(cell: string): 1 | -1 | null {
  switch (cell.trim()) {
    case "1":
    case "+1":
    case "1.0":
      return 1;
    case "-1":
    case "-1.0":
    case "0":
      return -1;
    default:
      return null;
  }
}

/** All labels the same. */
export function isOneClass(y: Int8Array): boolean {
  return y.every((label) => label === y[0]);
}
