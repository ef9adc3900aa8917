import { createReadStream } from "node:fs";
import { access, stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { createRequire } from "node:module";
import type { Options, Parser } from "csv-parse";
import { InputError } from "../vocabulary/input-error.js";
import type { DataSet } from "../vocabulary/data-set.js";

/** csv-parse, loaded with the first data file read: a sweep of generated data never needs its ~16 modules. */
const csvParse = (): typeof import("csv-parse") => createRequire(import.meta.url)("csv-parse") as typeof import("csv-parse");
const csvParseSync = (): typeof import("csv-parse/sync") => createRequire(import.meta.url)("csv-parse/sync") as typeof import("csv-parse/sync");

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
  const parser = csvParse().parse(options);
  source.on("error", (error) => parser.destroy(error));
  return source.pipe(parser);
}

/** A broken rule of a record, found before its line is known: `index` counts records, 0 the header. */
class RecordError extends Error {
  constructor(readonly index: number, message: string) {
    super(message);
  }
}

/**
 * The rules of a data CSV, record by record, into growing typed arrays; shared by the streaming reader
 * (fit) and the synchronous one (an experiment's data files). A broken rule throws a RecordError whose
 * record index the reader turns into a line number, or an InputError when no line applies.
 */
class DataRows {
  private header: string[] | null = null;
  private labelIndex = -1;
  private d = 0;
  private n = 0;
  private x = new Float64Array(1024);
  private y = new Int8Array(1024);
  private zeroOne = false;
  private minusOne = false;
  private index = 0;

  constructor(
    private readonly path: string,
    private readonly options: ReadDataOptions,
  ) {}

  add(record: string[]): void {
    const index = this.index++;
    if (this.header === null) {
      this.readHeader(record);
      return;
    }
    const header = this.header;
    const d = this.d;
    if (record.length !== header.length) {
      throw new RecordError(index, ` has ${record.length} field${record.length === 1 ? "" : "s"}, the header has ${header.length}`);
    }
    if ((this.n + 1) * d > this.x.length) {
      // Writes past a typed array's end are dropped silently: grow to at least the row that comes.
      const grown = new Float64Array(Math.max(this.x.length * 2, (this.n + 1) * d));
      grown.set(this.x);
      this.x = grown;
    }
    if (this.n >= this.y.length) {
      const grown = new Int8Array(this.y.length * 2);
      grown.set(this.y);
      this.y = grown;
    }
    let j = 0;
    for (let column = 0; column < record.length; column++) {
      const cell = record[column]!;
      if (column === this.labelIndex) {
        const label = parseLabel(cell);
        if (label === null) throw new RecordError(index, `, column "${LABEL_COLUMN}": ${JSON.stringify(cell)} is not a label; use -1/+1 or 0/1`);
        if (cell === "0") this.zeroOne = true;
        else if (label === -1) this.minusOne = true;
        this.y[this.n] = label;
        continue;
      }
      const value = cell === "" ? NaN : Number(cell);
      if (!Number.isFinite(value)) {
        const what = cell === "" ? "an empty field is not allowed" : `${JSON.stringify(cell)} ${/^[+-]?(nan|inf(inity)?)$/i.test(cell) ? "is not a finite number" : "is not a number"}`;
        throw new RecordError(index, `, column "${header[column]}": ${what}`);
      }
      this.x[this.n * d + j] = value;
      j++;
    }
    this.n++;
  }

  private readHeader(record: string[]): void {
    const seen = new Set<string>();
    for (const name of record) {
      if (name === "") throw new RecordError(0, ": the header has an empty column name");
      if (seen.has(name)) throw new RecordError(0, `: column "${name}" appears twice in the header`);
      seen.add(name);
    }
    this.header = record;
    this.labelIndex = record.indexOf(LABEL_COLUMN);
    if (this.labelIndex < 0) this.fail(`no "${LABEL_COLUMN}" column in the header (${headerWords(record)})`);
    this.d = record.length - 1;
    if (this.d === 0) this.fail(`no feature column besides "${LABEL_COLUMN}"`);
  }

  finish(): CsvDataSet {
    const { header, n, d } = this;
    if (header === null) return this.fail(`the file is empty; expected a header row with a "${LABEL_COLUMN}" column and feature columns`);
    if (n === 0) this.fail("no data rows after the header");
    if (this.zeroOne && this.minusOne) this.fail(`column "${LABEL_COLUMN}" mixes 0 and -1 as the negative label; use one convention`);
    const labels = this.y.slice(0, n);
    if (!this.options.oneClass && isOneClass(labels)) {
      this.fail(`every label is ${labels[0]! > 0 ? "+1" : "-1"}: a classification needs both classes; --one-class accepts such data`);
    }
    return { n, d, x: this.x.slice(0, n * d), y: labels, planted: null, features: header.filter((_, column) => column !== this.labelIndex) };
  }

  fail(message: string): never {
    throw new InputError(`${this.path}: ${message}`);
  }

  /** A parser's or a read's error, as an InputError naming the file (and the line, when the parser knows it). */
  failOn(error: unknown): never {
    if (error instanceof InputError) throw error;
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== undefined && !code.startsWith("CSV_")) this.fail(`cannot read the data file (${code})`);
    const line = (error as { lines?: number }).lines;
    return this.fail(`${line === undefined ? "" : `line ${line}: `}malformed CSV (${(error as Error).message.replace(/^Invalid [^:]*: /, "")})`);
  }
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
  const rows = new DataRows(path, options);
  try {
    for await (const record of parsed(open, PARSE_OPTIONS) as AsyncIterable<string[]>) rows.add(record);
  } catch (error) {
    if (error instanceof RecordError) rows.fail(`line ${await lineOf(error.index)}${error.message}`);
    rows.failOn(error);
  }
  return rows.finish();
}

/**
 * The same rules, read at once and synchronously (csv-parse's sync API): for the data files an experiment
 * names, which are read while the experiment is loaded. The whole text is held, so this suits data sets
 * of a few hundred MB at most; fit streams.
 */
export function parseDataCsvSync(text: string, path: string, options: ReadDataOptions = {}): CsvDataSet {
  const rows = new DataRows(path, options);
  let records: { record: string[]; info: { lines: number } }[] = [];
  try {
    records = csvParseSync().parse(text, { ...PARSE_OPTIONS, info: true }) as unknown as typeof records;
  } catch (error) {
    rows.failOn(error);
  }
  for (const { record, info } of records) {
    try {
      rows.add(record);
    } catch (error) {
      if (error instanceof RecordError) rows.fail(`line ${info.lines}${error.message}`);
      throw error;
    }
  }
  return rows.finish();
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

/**
 * What a refused header holds, for its message: the column names, each cut to 24 characters and at most
 * 12 of them, when the line has columns; a line without one comma is no CSV header, and is not echoed
 * (it may be any file's first line: a path mistyped into a key or a password file).
 */
function headerWords(record: readonly string[]): string {
  if (record.length < 2) return "its first line has no comma: is it a CSV file?";
  const cut = (name: string) => (name.length > 24 ? `${name.slice(0, 23)}…` : name);
  const shown = record.slice(0, 12).map(cut).join(", ");
  return `columns: ${shown}${record.length > 12 ? `, … (${record.length} in all)` : ""}`;
}
