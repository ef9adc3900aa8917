import { createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { parse, type Options, type Parser } from "csv-parse";
import { InputError } from "../experiment/input-error.js";
import type { DataSet } from "../generators/data-set.js";

/** A user's data set, with its feature names in column order. */
export interface CsvDataSet extends DataSet {
  readonly features: readonly string[];
}

export const LABEL_COLUMN = "label";

export interface ReadDataOptions {
  /** Accept data whose labels are all the same (the three-point family is such data). */
  readonly oneClass?: boolean;
}

/**
 * Reads a data CSV: a header row, a `label` column with −1/+1 (or 0/1, 0 meaning −1), every other column
 * a numeric feature. Streamed into growing typed arrays, so memory stays near the data's own size
 * (about 100 MB for a million rows of ten features). Every malformed input is an InputError naming the
 * file, line and column.
 */
export async function readDataCsv(path: string, options: ReadDataOptions = {}): Promise<CsvDataSet> {
  try {
    await access(path);
  } catch (error) {
    throw new InputError(`${path}: cannot read the data file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  if ((await stat(path)).isDirectory()) throw new InputError(`${path}: is a folder, not a data file (a CSV with a header row)`);
  return readRecords(() => createReadStream(path), path, options);
}

/** The same, from text in memory. */
export function parseDataCsv(text: string, path: string, options: ReadDataOptions = {}): Promise<CsvDataSet> {
  return readRecords(() => Readable.from([text]), path, options);
}

const PARSE_OPTIONS = { relax_column_count: true, skip_empty_lines: true, trim: true, bom: true } as const;

/** The records of a source, parsed; an error of the source (a read that fails) ends the iteration with it. */
function parsed(open: () => Readable, options: Options): Parser {
  const source = open();
  const parser = parse(options);
  source.on("error", (error) => parser.destroy(error));
  return source.pipe(parser);
}

async function readRecords(open: () => Readable, path: string, options: ReadDataOptions): Promise<CsvDataSet> {
  /** Record `index` (0: the header) is on which line? Asked only on an error: it parses again with line info. */
  const lineOf = async (index: number): Promise<number> => {
    let k = 0;
    for await (const { info } of parsed(open, { ...PARSE_OPTIONS, info: true }) as AsyncIterable<{ info: { lines: number } }>) {
      if (k++ === index) return info.lines;
    }
    return k;
  };
  const fail = (message: string): never => {
    throw new InputError(`${path}: ${message}`);
  };
  const failAt = async (index: number, message: string): Promise<never> => fail(`line ${await lineOf(index)}${message}`);

  let header: string[] | null = null;
  let labelIndex = -1;
  let d = 0;
  let n = 0;
  let x = new Float64Array(1024);
  let y = new Int8Array(1024);
  let zeroOne = false;
  let minusOne = false;
  let index = 0;
  try {
    for await (const record of parsed(open, PARSE_OPTIONS) as AsyncIterable<string[]>) {
      if (header === null) {
        header = record;
        const seen = new Set<string>();
        for (const name of header) {
          if (name === "") await failAt(0, ": the header has an empty column name");
          if (seen.has(name)) await failAt(0, `: column "${name}" appears twice in the header`);
          seen.add(name);
        }
        labelIndex = header.indexOf(LABEL_COLUMN);
        if (labelIndex < 0) fail(`no "${LABEL_COLUMN}" column in the header (columns: ${header.join(", ")})`);
        d = header.length - 1;
        if (d === 0) fail(`no feature column besides "${LABEL_COLUMN}"`);
        index++;
        continue;
      }
      if (record.length !== header.length) {
        await failAt(index, ` has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${header.length}`);
      }
      if ((n + 1) * d > x.length) {
        // Writes past a typed array's end are dropped silently: grow to at least the row that comes.
        const grown = new Float64Array(Math.max(x.length * 2, (n + 1) * d));
        grown.set(x);
        x = grown;
      }
      if (n >= y.length) {
        const grown = new Int8Array(y.length * 2);
        grown.set(y);
        y = grown;
      }
      let j = 0;
      for (let column = 0; column < record.length; column++) {
        const cell = record[column]!;
        if (column === labelIndex) {
          const label = parseLabel(cell);
          if (label === null) await failAt(index, `, column "${LABEL_COLUMN}": ${JSON.stringify(cell)} is not a label; use -1/+1 or 0/1`);
          if (cell === "0") zeroOne = true;
          else if (label === -1) minusOne = true;
          y[n] = label!;
          continue;
        }
        const value = cell === "" ? NaN : Number(cell);
        if (!Number.isFinite(value)) {
          const what = cell === "" ? "an empty field is not allowed" : `${JSON.stringify(cell)} ${/^[+-]?(nan|inf(inity)?)$/i.test(cell) ? "is not a finite number" : "is not a number"}`;
          await failAt(index, `, column "${header[column]}": ${what}`);
        }
        x[n * d + j] = value;
        j++;
      }
      n++;
      index++;
    }
  } catch (error) {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && !code.startsWith("CSV_")) fail(`cannot read the data file (${code})`);
    const line = (error as { lines?: number }).lines;
    return fail(`${line === undefined ? "" : `line ${line}: `}malformed CSV (${(error as Error).message.replace(/^Invalid [^:]*: /, "")})`);
  }
  if (header === null) return fail(`the file is empty; expected a header row with a "${LABEL_COLUMN}" column and feature columns`);
  if (n === 0) fail("no data rows after the header");
  if (zeroOne && minusOne) fail(`column "${LABEL_COLUMN}" mixes 0 and -1 as the negative label; use one convention`);
  const labels = y.slice(0, n);
  if (!options.oneClass && isOneClass(labels)) {
    fail(`every label is ${labels[0]! > 0 ? "+1" : "-1"}: a classification needs both classes; --one-class accepts such data (the three-point family is one)`);
  }
  return { n, d, x: x.slice(0, n * d), y: labels, planted: null, features: header.filter((_, column) => column !== labelIndex) };
}

function parseLabel(cell: string): 1 | -1 | null {
  switch (cell) {
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
