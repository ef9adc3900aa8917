import { existsSync } from "node:fs";
import { InputError } from "../experiment/input-error.js";
import { LineFile } from "../export/line-file.js";
import { LineReader, type LineReaderOptions } from "../export/read-lines.js";
import { recordProblem } from "../export/record-check.js";
import { removePath, renameDurably } from "../files/checked-fs.js";
import type { RunRow } from "../run/run-types.js";

/**
 * Rows recorded in a runs.jsonl-like file, read lazily: one record per line, in increasing run order
 * (every run of a sweep, or a shard's runs). A record torn by a kill is dropped by the reader; any other
 * line that is not a record in order, or whose record check does not match (see recordCheck), means the
 * file was changed after it was written, and is refused by file and line.
 */
export class RecordStream {
  readonly #lines: Iterator<string>;
  #line = 0;
  #previousRun = -1;
  /** The next record and its line, not yet taken; undefined before the first read, null at the end. */
  #head: { row: RunRow; line: string } | null | undefined;

  constructor(readonly path: string, options: LineReaderOptions = {}) {
    this.#lines = new LineReader(path, options)[Symbol.iterator]();
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
    if (row === null || typeof row !== "object" || !Number.isInteger(row.run) || row.run <= this.#previousRun) {
      throw corrupt(this.path, this.#line, `is not a run record in order (after run ${this.#previousRun})`);
    }
    const problem = recordProblem(line);
    if (problem !== null) throw corrupt(this.path, this.#line, problem);
    delete row.check;
    this.#previousRun = row.run;
    return { row, line };
  }
}

/** The recorded rows of a previous invocation, asked for by run index in increasing order. */
export class RecordedRuns {
  readonly #stream: RecordStream;

  constructor(path: string) {
    this.#stream = new RecordStream(path);
  }

  /** The recorded row of run `index`, or null; records of runs never asked for are skipped. */
  rowAt(index: number): RunRow | null {
    let head = this.#stream.peek();
    while (head !== null && head.run < index) {
      this.#stream.take();
      head = this.#stream.peek();
    }
    return head !== null && head.run === index ? this.#stream.take() : null;
  }
}

function corrupt(path: string, line: number, what: string): InputError {
  return new InputError(`${path}: line ${line} ${what}; the result folder was changed by hand (or written by a perceptron-lab older than 0.2): --overwrite starts over`);
}

/**
 * Gathers every recorded row into `previous` before a resume rewrites runs.jsonl from the start, and
 * returns it (null when nothing was recorded). runs.jsonl (the newest, possibly a partial rewrite by an
 * interrupted resume) wins over `previous` run by run. Crash-safe: the merge goes to a temporary file,
 * synced, then renamed over `previous`, and only then is runs.jsonl removed; a kill at any point leaves
 * a state this function merges again to the same result.
 */
export function consolidateRecords(runsJsonl: string, previous: string): string | null {
  const newer = existsSync(runsJsonl);
  const older = existsSync(previous);
  if (!newer) return older ? previous : null;
  if (!older) {
    renameDurably(runsJsonl, previous);
    return previous;
  }
  const temporary = `${previous}.tmp`;
  const out = new LineFile(temporary);
  const newest = new RecordStream(runsJsonl);
  const oldest = new RecordStream(previous);
  for (;;) {
    const a = newest.peek();
    const b = oldest.peek();
    if (a === null && b === null) break;
    if (b === null || (a !== null && a.run <= b.run)) {
      if (b !== null && a!.run === b.run) oldest.take();
      out.write(`${newest.takeLine()!.line}\n`);
    } else {
      out.write(`${oldest.takeLine()!.line}\n`);
    }
  }
  out.close();
  renameDurably(temporary, previous);
  removePath(runsJsonl);
  return previous;
}
