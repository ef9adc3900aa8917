import { existsSync, renameSync, unlinkSync } from "node:fs";
import { InputError } from "../experiment/input-error.js";
import { LineFile } from "../export/line-file.js";
import { LineReader } from "../export/read-lines.js";
import type { RunRow } from "../run/run-types.js";

/**
 * The rows a previous invocation recorded, read lazily in run order: row i is line i. A record torn by
 * a kill is dropped by the reader; any other line that is not the record of its run means the file was
 * changed by hand, and is refused.
 */
export class RecordedRuns {
  readonly #lines: Iterator<string>;
  #next = 0;
  #done = false;

  constructor(readonly path: string) {
    this.#lines = new LineReader(path)[Symbol.iterator]();
  }

  /** The recorded row of run `index` (indices must come in increasing order), or null. */
  rowAt(index: number): RunRow | null {
    while (!this.#done && this.#next <= index) {
      const line = this.#lines.next();
      if (line.done) {
        this.#done = true;
        return null;
      }
      const row = parseRecord(line.value, this.#next, this.path);
      this.#next++;
      if (row.run === index) return row;
    }
    return null;
  }
}

function parseRecord(line: string, expected: number, path: string): RunRow {
  let row: RunRow;
  try {
    row = JSON.parse(line) as RunRow;
  } catch {
    throw corrupt(path, expected, "is not JSON");
  }
  if (row === null || typeof row !== "object" || row.run !== expected) throw corrupt(path, expected, `is not the record of run ${expected}`);
  return row;
}

function corrupt(path: string, index: number, what: string): InputError {
  return new InputError(`${path}: line ${index + 1} ${what}; the result folder was changed by hand: --overwrite starts over`);
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
  const newest = new LineReader(runsJsonl)[Symbol.iterator]();
  const oldest = new LineReader(previous)[Symbol.iterator]();
  for (let index = 0; ; index++) {
    const a = newest.next();
    const b = oldest.next();
    if (a.done && b.done) break;
    const line = a.done ? b.value : a.value;
    parseRecord(line, index, a.done ? previous : runsJsonl);
    out.write(`${line}\n`);
  }
  out.close();
  renameSync(temporary, previous);
  unlinkSync(runsJsonl);
  return previous;
}
