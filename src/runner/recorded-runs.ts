import { existsSync, renameSync, unlinkSync } from "node:fs";
import { InputError } from "../experiment/input-error.js";
import { LineFile } from "../export/line-file.js";
import { LineReader } from "../export/read-lines.js";
import type { RunRow } from "../run/run-types.js";

/**
 * Rows recorded in a runs.jsonl-like file, read lazily: one record per line, in increasing run order
 * (every run of a sweep, or a shard's runs). A record torn by a kill is dropped by the reader; any other
 * line that is not a record in order means the file was changed by hand, and is refused by name.
 */
export class RecordStream {
  readonly #lines: Iterator<string>;
  #line = 0;
  #previousRun = -1;
  /** The next record, not yet taken; undefined before the first read, null at the end. */
  #head: RunRow | null | undefined;

  constructor(readonly path: string) {
    this.#lines = new LineReader(path)[Symbol.iterator]();
  }

  peek(): RunRow | null {
    if (this.#head === undefined) this.#head = this.#read();
    return this.#head;
  }

  take(): RunRow | null {
    const row = this.peek();
    this.#head = undefined;
    return row;
  }

  #read(): RunRow | null {
    const next = this.#lines.next();
    if (next.done) return null;
    this.#line++;
    let row: RunRow;
    try {
      row = JSON.parse(next.value) as RunRow;
    } catch {
      throw corrupt(this.path, this.#line, "is not JSON");
    }
    if (row === null || typeof row !== "object" || !Number.isInteger(row.run) || row.run <= this.#previousRun) {
      throw corrupt(this.path, this.#line, `is not a run record in order (after run ${this.#previousRun})`);
    }
    this.#previousRun = row.run;
    return row;
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
  return new InputError(`${path}: line ${line} ${what}; the result folder was changed by hand: --overwrite starts over`);
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
    renameSync(runsJsonl, previous);
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
      out.write(`${JSON.stringify(newest.take())}\n`);
    } else {
      out.write(`${JSON.stringify(oldest.take())}\n`);
    }
  }
  out.close();
  renameSync(temporary, previous);
  unlinkSync(runsJsonl);
  return previous;
}
