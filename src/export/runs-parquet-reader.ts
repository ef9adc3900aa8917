import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";
import type { parquetMetadata } from "hyparquet";
import type { RunRow } from "../run/run-types.js";
import { A_POSTERIORI_COLUMNS, RUN_COLUMNS } from "../run/run-columns.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

/**
 * A decoded row group: the numbers of every numeric column in one array and whether each has a value (else
 * null) in another, column c's rows at c × rows; the words and flags a column at a time, nulls kept. A few
 * objects a group, whatever its columns: merge holds one group of each of thousands of shards.
 */
export interface DecodedGroup {
  readonly rows: number;
  readonly numbers: Float64Array;
  readonly present: Uint8Array;
  readonly others: (unknown[] | null)[];
}

/** Where a row group lies in the file: its column chunks follow one another from `start` (as hyparquet-writer writes them). */
interface GroupPlace {
  readonly start: number;
  readonly end: number;
  readonly rows: number;
}

/**
 * A runs.parquet written by this tool (RunsParquetWriter), read synchronously a row group at a time: the
 * footer once (keeping only where each group lies), then each group's bytes in one read, decoded column by
 * column. Rows are built one at a time as asked for. The file is opened for each read and closed again, so
 * that a merge of thousands of shards holds one descriptor. A file with other columns than RUN_COLUMNS (or
 * those of a tool before 0.10, without the a-posteriori columns, which then read as null) is refused (Error:
 * callers say whose).
 */
export class RunsParquetReader {
  readonly rows: number;
  readonly #groups: GroupPlace[] = [];
  readonly #decoders: readonly Decoder[];
  /** Where each of the file's columns goes in the layout's columns. */
  readonly #places: readonly number[];
  readonly #rowAt: (group: DecodedGroup, k: number) => RunRow;

  /** `layout`: the columns the folder's manifest says its tables have (a sweep's plug-in bounds', table-layout.ts). */
  constructor(readonly path: string, readonly layout: TableLayout = BUILT_IN) {
    const fd = openSync(path, "r");
    let metadata: ReturnType<typeof parquetMetadata>;
    try {
      const size = fstatSync(fd).size;
      if (size < 12) throw new Error("too short for a Parquet file");
      const tail = readExactly(fd, size - 8, 8);
      const footerLength = tail.readUInt32LE(0);
      if (tail.toString("latin1", 4) !== "PAR1" || footerLength > size - 12) throw new Error("not a Parquet file (no footer)");
      metadata = hyparquet().parquetMetadata(readExactly(fd, size - 8 - footerLength, footerLength + 8));
    } finally {
      closeSync(fd);
    }
    const names = metadata.schema.slice(1).map((element) => element.name);
    if (names.join(",") !== layout.columns.join(",") && !(layout === BUILT_IN && names.join(",") === COLUMNS_BEFORE_0_10.join(","))) {
      throw new Error(`its columns are not those of runs.csv (${names.slice(0, 4).join(", ")}, …${names.length === layout.columns.length ? "" : `; ${names.length} columns, not ${layout.columns.length}`})`);
    }
    this.#places = names.map((name) => layout.columns.indexOf(name));
    this.#rowAt = rowMaker(layout);
    this.#decoders = decodersFor(metadata);
    for (const group of metadata.row_groups) {
      const chunks = group.columns.map((column) => {
        const meta = column.meta_data!;
        const start = Number(meta.dictionary_page_offset ?? meta.data_page_offset);
        return { start, end: start + Number(meta.total_compressed_size) };
      });
      chunks.forEach((chunk, k) => {
        if (k > 0 && chunk.start !== chunks[k - 1]!.end) throw new Error("its column chunks are not laid out as this tool writes them");
      });
      this.#groups.push({ start: chunks[0]!.start, end: chunks.at(-1)!.end, rows: Number(group.num_rows) });
    }
    this.rows = Number(metadata.num_rows);
  }

  /** Every row group's rows in turn (one group decoded at a time), each row built as it is reached. */
  [Symbol.iterator](): Iterator<RunRow> {
    return this.rowsFrom(0);
  }

  /** The rows from row `start` on (0: the first): the groups before it are not read, and the one it is in is decoded whole. */
  *rowsFrom(start: number): Generator<RunRow> {
    let first = 0;
    for (let g = 0; g < this.#groups.length; g++) {
      const rows = this.#groups[g]!.rows;
      if (first + rows <= start) {
        first += rows;
        continue;
      }
      const group = this.readGroup(g);
      for (let k = Math.max(0, start - first); k < group.rows; k++) yield this.#rowAt(group, k);
      first += rows;
    }
  }

  get groupCount(): number {
    return this.#groups.length;
  }

  /** Row group `g` decoded, in the layout's column order (rowAt builds its rows). */
  readGroup(g: number): DecodedGroup {
    const place = this.#groups[g]!;
    const fd = openSync(this.path, "r");
    let bytes: Buffer;
    try {
      bytes = readExactly(fd, place.start, place.end - place.start);
    } finally {
      closeSync(fd);
    }
    const reader = { view: new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength), offset: 0 };
    const { rows } = place;
    // A column the file does not have (written before it existed) stays null: numeric, never present.
    const width = this.layout.columns.length;
    const group: DecodedGroup = { rows, numbers: new Float64Array(rows * width), present: new Uint8Array(rows * width), others: this.layout.columns.map(() => null) };
    this.#decoders.forEach((decoder, f) => decodeColumn(reader, decoder, group, this.#places[f]!));
    return group;
  }
}

type Decoder = ReturnType<typeof columnDecoders>[number];

/**
 * One flat column chunk's pages, from the reader's offset (left at the chunk's end). hyparquet's own
 * readColumn assembles nested lists for every column and keeps numbers as objects; runs.parquet's columns
 * are flat, and a column of doubles with a presence flag a row takes a third of the memory and time.
 */
function decodeColumn(reader: { view: DataView; offset: number }, decoder: Decoder, group: DecodedGroup, c: number): void {
  const { rows } = group;
  const numeric = decoder.type === "DOUBLE" || decoder.type === "INT64";
  const others = numeric ? null : new Array<unknown>(rows).fill(null);
  group.others[c] = others;
  const at = c * rows;
  let dictionary: ArrayLike<unknown> | undefined;
  let row = 0;
  const put = (value: unknown) => {
    if (value !== null && value !== undefined) {
      if (others === null) group.numbers[at + row] = typeof value === "bigint" ? Number(value) : (value as number);
      else others[row] = value;
      group.present[at + row] = 1;
    }
    row++;
  };
  while (row < rows) {
    if (reader.offset >= reader.view.byteLength) throw new Error(`column ${decoder.pathInSchema[0]} ends after ${row} of ${rows} rows`);
    const header = hyparquet().parquetHeader(reader);
    if (header.type === "DATA_PAGE_V2") {
      const bytes = new Uint8Array(reader.view.buffer, reader.view.byteOffset + reader.offset, header.compressed_page_size);
      reader.offset += header.compressed_page_size;
      const page = header.data_page_header_v2!;
      const { definitionLevels, dataPage } = hyparquet().readDataPageV2(bytes, header, decoder);
      const decoded = hyparquet().convertWithDictionary(dataPage, dictionary as never, page.encoding, decoder) as ArrayLike<unknown>;
      if (definitionLevels === undefined || definitionLevels.length === 0) {
        for (let k = 0; k < decoded.length; k++) put(decoded[k]);
      } else {
        for (let k = 0, v = 0; k < definitionLevels.length; k++) put(definitionLevels[k] ? decoded[v++] : null);
      }
    } else if (header.type === "DICTIONARY_PAGE") {
      dictionary = hyparquet().convert(hyparquet().readPage(reader, header, decoder, undefined, undefined, 0).data!, decoder) as ArrayLike<unknown>;
    } else {
      // A version 1 data page (not what hyparquet-writer writes): hyparquet assembles it, nulls included.
      const { data } = hyparquet().readPage(reader, header, decoder, dictionary as never, undefined, 0);
      for (let k = 0; k < (data?.length ?? 0); k++) put(data![k]);
    }
  }
  if (row !== rows) throw new Error(`column ${decoder.pathInSchema[0]} holds ${row} values, not ${rows}`);
}

/**
 * Row `k` of a decoded row group, as runs.jsonl's record of it reads (runLines gives back its line byte for
 * byte): an object literal with the layout's keys in order, compiled once a layout, so that every row has one shape.
 */
function rowMaker(layout: TableLayout): (group: DecodedGroup, k: number) => RunRow {
  let make = ROW_MAKERS.get(layout);
  if (make === undefined) {
    make = new Function(
      "g",
      "k",
      `const r = g.rows, p = g.present, n = g.numbers, o = g.others;
  return {${layout.columns.map((column, c) => `${JSON.stringify(column)}: o[${c}] === null ? (p[${c} * r + k] === 1 ? n[${c} * r + k] : null) : o[${c}][k]`).join(", ")}};`,
    ) as (group: DecodedGroup, k: number) => RunRow;
    ROW_MAKERS.set(layout, make);
  }
  return make;
}

const ROW_MAKERS = new WeakMap<TableLayout, (group: DecodedGroup, k: number) => RunRow>();

/** Row `k` of a decoded row group without plug-in bounds' columns (see rowMaker). */
export const rowAt = rowMaker(BUILT_IN);

/** Decoders by schema and codecs: every runs.parquet of a merge has the same, made once (not once a shard). */
const DECODERS = new Map<string, readonly Decoder[]>();

function decodersFor(metadata: ReturnType<typeof parquetMetadata>): readonly Decoder[] {
  const schema = metadata.schema.map((element) => [element.name, element.type, element.repetition_type, element.converted_type]);
  const key = JSON.stringify([schema, metadata.row_groups[0]?.columns.map((column) => column.meta_data?.codec)]);
  let decoders = DECODERS.get(key);
  if (decoders === undefined) DECODERS.set(key, (decoders = columnDecoders(metadata)));
  return decoders;
}

/** The columns of runs.parquet written before 0.10: those of today less the a-posteriori ones. */
const COLUMNS_BEFORE_0_10 = RUN_COLUMNS.filter((column) => !(A_POSTERIORI_COLUMNS as readonly string[]).includes(column));

/** hyparquet's decoder parameters for each of the file's columns, as its own readRowGroup makes them. */
function columnDecoders(metadata: ReturnType<typeof parquetMetadata>) {
  const tree = hyparquet().parquetSchema(metadata);
  const first = metadata.row_groups[0];
  return metadata.schema.slice(1).map((element, c) => {
    const meta = first?.columns[c]?.meta_data;
    const pathInSchema = meta?.path_in_schema ?? [element.name];
    const schemaPath = hyparquet().getTreePath(tree, pathInSchema);
    return { pathInSchema, element: schemaPath.at(-1)!.element, schemaPath, type: schemaPath.at(-1)!.element.type!, codec: meta?.codec ?? "SNAPPY", parsers: hyparquet().DEFAULT_PARSERS };
  });
}

function readExactly(fd: number, position: number, length: number): Buffer {
  const buffer = Buffer.alloc(length);
  let read = 0;
  while (read < length) {
    const n = readSync(fd, buffer, read, length - read, position + read);
    if (n === 0) throw new Error("ends early");
    read += n;
  }
  return buffer;
}

/**
 * hyparquet, loaded with the first runs.parquet read (its ~30 modules are ~35 ms of a process's start, which a
 * command that reads no runs.parquet never needs): its footer reader and the synchronous page decoders under its
 * (asynchronous) parquetRead, which the package exports as its src/*.js; hyparquet is pinned to the version
 * hyparquet-writer pins.
 */
function hyparquet(): ReturnType<typeof loadHyparquet> {
  return (loaded ??= loadHyparquet());
}

function loadHyparquet() {
  const require = createRequire(import.meta.url);
  return {
    ...(require("hyparquet") as Pick<typeof import("hyparquet"), "parquetMetadata" | "parquetSchema">),
    ...(require("hyparquet/src/column.js") as Pick<typeof import("hyparquet/src/column.js"), "parquetHeader" | "readPage">),
    ...(require("hyparquet/src/convert.js") as Pick<typeof import("hyparquet/src/convert.js"), "convert" | "convertWithDictionary" | "DEFAULT_PARSERS">),
    ...(require("hyparquet/src/datapage.js") as Pick<typeof import("hyparquet/src/datapage.js"), "readDataPageV2">),
    ...(require("hyparquet/src/schema.js") as Pick<typeof import("hyparquet/src/schema.js"), "getTreePath">),
  };
}

let loaded: ReturnType<typeof loadHyparquet> | undefined;
