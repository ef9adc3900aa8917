import { createHash } from "node:crypto";
import { closeSync, existsSync, fstatSync, openSync, readSync } from "node:fs";
import { InputError } from "../vocabulary/input-error.js";
import { LineFile } from "../export/line-file.js";
import { LineReader, type LineReaderOptions } from "../export/read-lines.js";
import { recordProblem } from "../export/record-check.js";
import { BOTH_RUN_TABLES, runLines } from "../export/run-lines.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { RunsParquetReader } from "../export/runs-parquet-reader.js";
import type { RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { removePath, renameDurably } from "../files/checked-fs.js";
import type { RunRow } from "../run/run-types.js";
import { optionsText } from "../vocabulary/option-words.js";

/** Recorded rows in run order, taken one at a time: from runs.jsonl (RecordStream) or runs.parquet (ParquetRecordStream). */
export interface RunStream {
  peek(): RunRow | null;
  take(): RunRow | null;
  /** The next record with its runs.jsonl line (check included), to copy it as it is. */
  takeLine(): { row: RunRow; line: string } | null;
}

/**
 * Rows recorded in a runs.jsonl-like file, read lazily: one record per line, in increasing run order
 * (every run of a sweep, or a shard's runs). A record torn by a kill is dropped by the reader; any other
 * line that is not a record in order, or whose record check does not match (see recordCheck), means the
 * file was changed after it was written, and is refused by file and line.
 */
export class RecordStream implements RunStream {
  readonly #lines: Iterator<string>;
  #line: number;
  #previousRun: number;
  /** Where the record after the last one taken starts, in bytes (counted only where #counting). */
  #offset: number;
  /** The run of the last record taken (before any, the `from` given). */
  #taken: number;
  readonly #counting: boolean;
  /** The next record and its line, not yet taken; undefined before the first read, null at the end. */
  #head: { row: RunRow; line: string } | null | undefined;

  /**
   * `from`: where a read of the file stopped before (merge reads a shard a block at a time): its byte
   * offset (RecordStream.offset), the lines and the last run read before it, so that messages name the
   * right line and the order is checked across the stop.
   */
  constructor(readonly path: string, options: LineReaderOptions = {}, from?: { readonly offset: number; readonly line: number; readonly previousRun: number }) {
    this.#lines = new LineReader(path, { ...options, start: from?.offset ?? 0 })[Symbol.iterator]();
    // Offsets are counted (a UTF-8 length a record) only for a reader that reads on from a stop, as merge's do.
    this.#counting = from !== undefined;
    this.#offset = from?.offset ?? 0;
    this.#line = from?.line ?? 0;
    this.#previousRun = from?.previousRun ?? -1;
    this.#taken = this.#previousRun;
  }

  /**
   * Where the record after the last one taken starts (a RecordStream made `from` it reads on from there), the
   * lines before it, the last run taken. Only for a stream made `from` a position (merge's, from the start: 0).
   */
  get position(): { readonly offset: number; readonly line: number; readonly previousRun: number } {
    if (!this.#counting) throw new Error("a RecordStream counts its position only when made from one (a bug)");
    const read = this.#head === undefined || this.#head === null ? 0 : 1;
    return { offset: this.#offset, line: this.#line - read, previousRun: this.#taken };
  }

  peek(): RunRow | null {
    if (this.#head === undefined) this.#head = this.#read();
    return this.#head?.row ?? null;
  }

  take(): RunRow | null {
    return this.takeLine()?.row ?? null;
  }

  /** The next record with its line as written (check included), to copy it as it is. */
  takeLine(): { row: RunRow; line: string } | null {
    this.peek();
    const head = this.#head!;
    this.#head = undefined;
    if (head !== null && this.#counting) {
      this.#offset += Buffer.byteLength(head.line) + 1;
      this.#taken = head.row.run;
    }
    return head;
  }

  #read(): { row: RunRow; line: string } | null {
    const next = this.#lines.next();
    if (next.done) return null;
    this.#line++;
    const line = next.value;
    let row: RunRow & { check?: string };
    try {
      row = JSON.parse(line) as RunRow;
    } catch {
      throw corrupt(this.path, this.#line, "is not JSON");
    }
    if (row === null || typeof row !== "object" || Array.isArray(row) || !Number.isInteger(row.run)) {
      throw corrupt(this.path, this.#line, "is JSON but not a run record (an object with a whole-number run)");
    }
    if (row.run <= this.#previousRun) throw corrupt(this.path, this.#line, `is run ${row.run}, not in order (after run ${this.#previousRun})`);
    const problem = recordProblem(line);
    if (problem !== null) throw corrupt(this.path, this.#line, problem);
    delete row.check;
    this.#previousRun = row.run;
    return { row, line };
  }
}

/**
 * The rows of a complete folder's runs.parquet, a row group at a time (see RunsParquetReader). The file is
 * first checked against what its manifest recorded of it (rows, size, SHA-256): a file changed after it was
 * written, or not the one the manifest speaks of, is refused (InputError), as a changed runs.jsonl record is.
 * takeLine gives each row's runs.jsonl line as this version writes it (for a row read from a record of this
 * version, the very line: tested).
 */
export class ParquetRecordStream implements RunStream {
  readonly #rows: Iterator<RunRow>;
  #head: RunRow | null | undefined;
  #previousRun = -1;
  /** Rows taken so far, counted from the file's first (a stream made `from` a row counts from there). */
  #taken: number;

  /**
   * `layout`: the columns the folder's manifest says its tables have (its plug-in bounds'). `from`: where a
   * read of the file stopped before (merge reads a shard a block at a time): the rows taken and the last run
   * (the file, already checked against its digest then, is not hashed again).
   */
  constructor(readonly path: string, digest: RunsParquetDigest, readonly layout: TableLayout = BUILT_IN, from?: { readonly row: number; readonly previousRun: number }) {
    if (from === undefined) refuseChangedParquet(path, digest);
    this.#taken = from?.row ?? 0;
    this.#previousRun = from?.previousRun ?? -1;
    this.#lastTaken = this.#previousRun;
    let reader: RunsParquetReader;
    try {
      reader = new RunsParquetReader(path, layout);
    } catch (error) {
      throw new InputError(`${path}: not a runs table this tool wrote (${(error as Error).message})`);
    }
    this.#rows = reader.rowsFrom(this.#taken);
  }

  /** Where the row after the last one taken is (a ParquetRecordStream made `from` it reads on from there). */
  get position(): { readonly row: number; readonly previousRun: number } {
    return { row: this.#taken, previousRun: this.#lastTaken };
  }

  #lastTaken = -1;

  peek(): RunRow | null {
    if (this.#head === undefined) {
      const next = this.#rows.next();
      this.#head = next.done ? null : next.value;
      if (this.#head !== null) {
        if (!Number.isInteger(this.#head.run) || this.#head.run <= this.#previousRun) {
          throw new InputError(`${this.path}: run ${this.#head.run} is not in order (after run ${this.#previousRun})`);
        }
        this.#previousRun = this.#head.run;
      }
    }
    return this.#head;
  }

  take(): RunRow | null {
    const head = this.peek();
    this.#head = undefined;
    if (head !== null) {
      this.#taken++;
      this.#lastTaken = head.run;
    }
    return head;
  }

  takeLine(): { row: RunRow; line: string } | null {
    const row = this.take();
    return row === null ? null : { row, line: runLines([row], BOTH_RUN_TABLES, this.layout).jsonl.slice(0, -1) };
  }
}

/** Why a file is not the one a digest describes, or null when it is (its size, then its SHA-256, read 1 MiB at a time). */
/**
 * Refuses a runs.parquet that is not the one its manifest records (missing, or another size or SHA-256):
 * every reader of its rows checks it, and a resume of a complete folder that still holds one.
 */
export function refuseChangedParquet(path: string, digest: RunsParquetDigest): void {
  const problem = fileDigestProblem(path, digest);
  if (problem !== null) throw new InputError(`${path}: ${problem}; the result folder was changed by hand: rerun the sweep (or ${optionsText("overwrite")})`);
}

function fileDigestProblem(path: string, digest: RunsParquetDigest): string | null {
  if (!existsSync(path)) return "missing (its manifest records it)";
  const fd = openSync(path, "r");
  try {
    const size = fstatSync(fd).size;
    if (size !== digest.bytes) return `${size} bytes, but its manifest records ${digest.bytes}`;
    const hash = createHash("sha256");
    const chunk = Buffer.alloc(1 << 20);
    for (let position = 0; position < size; ) {
      const read = readSync(fd, chunk, 0, chunk.length, position);
      if (read === 0) break;
      hash.update(chunk.subarray(0, read));
      position += read;
    }
    const sha256 = hash.digest("hex");
    return sha256 === digest.sha256 ? null : `its SHA-256 is ${sha256.slice(0, 12)}…, its manifest records ${digest.sha256.slice(0, 12)}…`;
  } finally {
    closeSync(fd);
  }
}

/** The recorded rows of a previous invocation, asked for by run index in increasing order. */
export class RecordedRuns {
  constructor(readonly stream: RunStream) {}

  /** The recorded row of run `index`, or null; records of runs never asked for are skipped. */
  rowAt(index: number): RunRow | null {
    let head = this.stream.peek();
    while (head !== null && head.run < index) {
      this.stream.take();
      head = this.stream.peek();
    }
    return head !== null && head.run === index ? this.stream.take() : null;
  }
}

function corrupt(path: string, line: number, what: string): InputError {
  return new InputError(`${path}: line ${line} ${what}; the result folder was changed by hand (or written by a perceptron-lab older than 0.2): ${optionsText("overwrite")} starts over`);
}

/**
 * Reads every record of a records file, each check verified (RecordStream): throws, naming the file and the
 * line, at the first that was changed after it was written. A resume calls it before it rewrites anything,
 * so that a tampered runs.jsonl is refused by its own name with the folder as it was.
 */
export function verifyRecords(path: string): void {
  const stream = new RecordStream(path);
  while (stream.takeLine() !== null);
}

/** How consolidate reads a kind of record file, and writes one: its first bytes, a record moved over from a stream, its last. */
export interface RecordFormat {
  open(path: string): RunStream;
  start(out: LineFile): void;
  move(from: RunStream, out: LineFile): void;
  end(out: LineFile): void;
}

/**
 * Gathers every recorded row of two record files into `previous` before a resume rewrites `newer` from the
 * start, and returns its path (null when neither exists). `newer` (possibly a partial rewrite by an
 * interrupted resume) wins over `previous` run by run. Crash-safe: the merge goes to a temporary file,
 * synced, then renamed over `previous`, and only then is `newer` removed; a kill at any point leaves a state
 * this function merges again to the same rows. For runs.jsonl (a folder before 0.16) and the journal.
 */
export function consolidate(newer: string, previous: string, format: RecordFormat): string | null {
  const hasNewer = existsSync(newer);
  const hasOlder = existsSync(previous);
  if (!hasNewer) return hasOlder ? previous : null;
  if (!hasOlder) {
    renameDurably(newer, previous);
    return previous;
  }
  const temporary = `${previous}.tmp`;
  const out = new LineFile(temporary);
  format.start(out);
  const newest = format.open(newer);
  const oldest = format.open(previous);
  for (;;) {
    const a = newest.peek();
    const b = oldest.peek();
    if (a === null && b === null) break;
    if (b === null || (a !== null && a.run <= b.run)) {
      if (b !== null && a!.run === b.run) oldest.take();
      format.move(newest, out);
    } else {
      format.move(oldest, out);
    }
  }
  format.end(out);
  out.close();
  renameDurably(temporary, previous);
  removePath(newer);
  return previous;
}

/** consolidate of runs.jsonl records, each line copied as it is. */
export function consolidateRecords(runsJsonl: string, previous: string): string | null {
  return consolidate(runsJsonl, previous, {
    open: (path) => new RecordStream(path),
    start: () => {},
    move: (from, out) => out.write(`${from.takeLine()!.line}\n`),
    end: () => {},
  });
}
