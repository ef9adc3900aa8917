import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { decodeRow, encodeRows, type BinaryRows } from "../export/binary-rows.js";
import { BLOCK_CHECK_BYTES, BLOCK_HEADER_BYTES, JOURNAL_HEADER_BYTES, journalBlock, journalHeader, openBlock, readBlockHead, readJournalHeader } from "../export/journal-blocks.js";
import { LineFile } from "../export/line-file.js";
import { BOTH_RUN_TABLES, runLines } from "../export/run-lines.js";
import type { RunRow } from "../run/run-types.js";
import { RUN_COLUMNS } from "../run/run-columns.js";
import type { TableLayout } from "../run/table-layout.js";
import { InputError } from "../vocabulary/input-error.js";
import { optionsText } from "../vocabulary/option-words.js";
import { consolidate, type RunStream } from "./recorded-runs.js";

/**
 * The rows of a sweep's journal (runs.journal, journal-blocks.ts), in run order, a block at a time: each
 * block's check verified, the runs in increasing order. A block torn by a kill (the last, cut short) ends the
 * journal; a block changed after it was written, or a file that is not a journal of these columns, is refused
 * (InputError) by file, block and byte. The file is opened for each block's read and closed again.
 */
export class JournalStream implements RunStream {
  #position = JOURNAL_HEADER_BYTES;
  #block = 0;
  #rows: BinaryRows | null = null;
  #index = 0;
  #previousRun = -1;
  #head: RunRow | null | undefined;
  #ended = false;

  /** `layout`: the columns the folder's manifest says its tables have (its plug-in bounds'). */
  constructor(readonly path: string, readonly layout: TableLayout) {
    const header = this.#read(0, JOURNAL_HEADER_BYTES);
    // Shorter than its header: killed before its first bytes reached the disk, so nothing recorded.
    if (header === null) {
      this.#ended = true;
      return;
    }
    const width = readJournalHeader(header);
    if (typeof width === "string") throw corrupt(path, width);
    if (width !== layout.width) throw corrupt(path, `holds rows of ${width} columns, where the folder's manifest gives its tables ${layout.width}`);
  }

  peek(): RunRow | null {
    if (this.#head === undefined) this.#head = this.#next();
    return this.#head;
  }

  take(): RunRow | null {
    const head = this.peek();
    this.#head = undefined;
    return head;
  }

  /** The next row with its runs.jsonl line as this version writes it (for a row of this version, the line its sweep wrote). */
  takeLine(): { row: RunRow; line: string } | null {
    const row = this.take();
    return row === null ? null : { row, line: runLines([row], BOTH_RUN_TABLES, this.layout).jsonl.slice(0, -1) };
  }

  /**
   * The rest of the current block, or the next block, as binary rows (binary-rows.ts): what runs.parquet is
   * written from, without a row object each. Their runs are checked in order as take checks them.
   */
  takeBlock(): BinaryRows | null {
    if (this.#head !== undefined && this.#head !== null) throw new Error("JournalStream.takeBlock after a peek (a bug)");
    this.#head = undefined;
    while (this.#rows === null || this.#index >= this.#rows.count) {
      if (this.#ended || !this.#nextBlock()) return null;
    }
    const { width } = this.layout;
    const rows = this.#rows;
    const from = this.#index;
    const values = rows.values.subarray(from * width, rows.count * width);
    for (let at = RUN_AT; at < values.length; at += width) {
      const run = values[at]!;
      if (!Number.isInteger(run) || run <= this.#previousRun) throw corrupt(this.path, `block ${this.#block} holds run ${run} after run ${this.#previousRun}: not in order`);
      this.#previousRun = run;
    }
    this.#index = rows.count;
    return { count: rows.count - from, values, texts: rows.texts };
  }

  #next(): RunRow | null {
    while (this.#rows === null || this.#index >= this.#rows.count) {
      if (this.#ended || !this.#nextBlock()) return null;
    }
    const row = decodeRow(this.#rows, this.#index++, this.layout);
    if (!Number.isInteger(row.run) || row.run <= this.#previousRun) throw corrupt(this.path, `block ${this.#block} holds run ${row.run} after run ${this.#previousRun}: not in order`);
    this.#previousRun = row.run;
    return row;
  }

  /** Reads the next block; false at the journal's end (or a block torn by a kill). */
  #nextBlock(): boolean {
    const at = this.#position;
    const header = this.#read(at, BLOCK_HEADER_BYTES);
    if (header === null) return this.#end();
    const head = readBlockHead(header);
    this.#block++;
    if (typeof head === "string") throw corrupt(this.path, `block ${this.#block} (byte ${at}) ${head}`);
    const rest = this.#read(at + BLOCK_HEADER_BYTES, BLOCK_CHECK_BYTES + head.storedBytes);
    if (rest === null) return this.#end();
    const rows = openBlock(head, header, rest, this.layout.width);
    if (typeof rows === "string") throw corrupt(this.path, `block ${this.#block} (byte ${at}) ${rows}`);
    this.#rows = rows;
    this.#index = 0;
    this.#position = at + BLOCK_HEADER_BYTES + BLOCK_CHECK_BYTES + head.storedBytes;
    return true;
  }

  #end(): false {
    this.#ended = true;
    this.#rows = null;
    return false;
  }

  /** `length` bytes from `at`, or null where the file ends first (a torn end; an empty tail). */
  #read(at: number, length: number): Uint8Array | null {
    const fd = openSync(this.path, "r");
    try {
      if (fstatSync(fd).size < at + length) return null;
      const bytes = Buffer.allocUnsafe(length);
      let read = 0;
      while (read < length) {
        const got = readSync(fd, bytes, read, length - read, at + read);
        if (got === 0) return null;
        read += got;
      }
      return bytes;
    } finally {
      closeSync(fd);
    }
  }
}

/** Where a row's run is among its numbers. */
const RUN_AT = RUN_COLUMNS.indexOf("run");

/** Reads a journal to its end, every block's check verified: throws, naming the file and the block, at the first that was changed. */
export function verifyJournal(path: string, layout: TableLayout): void {
  const stream = new JournalStream(path, layout);
  while (stream.take() !== null);
}

/** Rows a block holds in a journal written here (not by a sweep, whose blocks are its batches). */
const BLOCK_ROWS = 256;

/**
 * Rows written as a journal into `out`, its header first, BLOCK_ROWS rows a block: a resume's gathered rows
 * (consolidateJournal), a complete folder's rows given back from its runs.parquet (journalFromParquet). Call
 * flush after the last row.
 */
export class JournalWriter {
  #rows: RunRow[] = [];

  constructor(readonly out: LineFile, readonly layout: TableLayout) {
    out.write(journalHeader(layout.width));
  }

  add(row: RunRow): void {
    this.#rows.push(row);
    if (this.#rows.length === BLOCK_ROWS) this.flush();
  }

  flush(): void {
    if (this.#rows.length > 0) this.out.write(journalBlock(encodeRows(this.#rows, { layout: this.layout }), this.layout.width));
    this.#rows = [];
  }
}

/** consolidate (recorded-runs.ts) of two journals of `layout`'s rows. */
export function consolidateJournal(journal: string, previous: string, layout: TableLayout): string | null {
  let writer: JournalWriter | null = null;
  return consolidate(journal, previous, {
    open: (path) => new JournalStream(path, layout),
    start: (out) => void (writer = new JournalWriter(out, layout)),
    move: (from) => writer!.add(from.take()!),
    end: () => writer!.flush(),
  });
}

function corrupt(path: string, what: string): InputError {
  return new InputError(`${path}: ${what}; the result folder was changed by hand: ${optionsText("overwrite")} starts over`);
}
