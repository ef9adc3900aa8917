import { Piscina } from "piscina";
import type { BinaryRows } from "../export/binary-rows.js";
import { RunsParquetWriter, type RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { tableLayout } from "../run/table-layout.js";
import type { ParquetAnswer, ParquetTask } from "./parquet-encoder.js";
import { threadModule } from "./thread-module.js";

/** Rows handed to the thread and not yet made bytes, past which a sweep waits (room): ~40 MB of small runs' numbers. */
const MAX_PENDING_ROWS = 65_536;

/**
 * A sweep of at most this many runs writes runs.parquet on the coordinator instead (inline): a thread's start
 * (~0.1 s of CPU, and hyparquet-writer's load in it) costs more than encoding them (~30 µs a small run: 0.12 s
 * at most), and a sweep that small is over before a thread would have helped. quick.json (240 runs), and every
 * small sweep of the tests (their CI time grew by ~100 s when each started a thread).
 */
export const INLINE_PARQUET_RUNS = 4096;

/**
 * A sweep's parquet thread (parquet-encoder.ts): rows as numbers go in, in run order, and runs.parquet's bytes
 * come back, in order, to `write` (the coordinator's checked writes of the file). A failure of `write` or of the
 * thread is thrown by the next add, room or finish. A sweep that makes rows faster than the thread encodes
 * them waits in room, so that what is pending stays bounded.
 */
export class ParquetThread {
  /** For a small sweep (INLINE_PARQUET_RUNS), the writer on this thread, and no thread. */
  readonly #inline: RunsParquetWriter | null;
  readonly #inlineParts: Uint8Array[] = [];
  /** Started with the first task (a sweep that stops before its first rows starts no thread). */
  #pool: Piscina<ParquetTask, ParquetAnswer> | null = null;
  #tail: Promise<void> = Promise.resolve();
  #failure: unknown = null;
  #pending = 0;
  #drained: (() => void) | null = null;
  #seq = 0;
  /** What the file holds, from whichever answer brought it (the one whose task let the finish be taken). */
  #digest: RunsParquetDigest | null = null;

  /** `runs`: the sweep's runs, at most INLINE_PARQUET_RUNS to encode them on this thread. */
  constructor(readonly start: { readonly rowGroup: number; readonly extraBounds?: readonly string[]; readonly createdBy: string }, readonly write: (part: Uint8Array) => void, runs = Infinity) {
    // Its bytes (a few KB to ~0.3 MB) are kept and written at once when the file is finished: one write, not one a part.
    this.#inline = runs <= INLINE_PARQUET_RUNS ? new RunsParquetWriter((part) => this.#inlineParts.push(part.slice()), start.rowGroup, tableLayout(start.extraBounds), start.createdBy) : null;
  }

  #started(): Piscina<ParquetTask, ParquetAnswer> {
    if (this.#pool !== null) return this.#pool;
    const { filename, name, execArgv } = threadModule("parquet-encoder", "encodeParquet", import.meta.url);
    const pool = new Piscina<ParquetTask, ParquetAnswer>({ filename, ...(name === undefined ? {} : { name }), minThreads: 1, maxThreads: 1, idleTimeout: 60_000, execArgv, resourceLimits: { maxYoungGenerationSizeMb: 16 } });
    // A closed pool may still hear its thread answer a task given up (as in run-pool.ts): kept, never thrown.
    pool.on("error", (error: unknown) => {
      this.#failure ??= error;
    });
    this.#pool = pool;
    this.#send({ seq: this.#seq++, start: this.start }, 0);
    return pool;
  }

  /** Rows in run order (copied: they may be views of a thread's ring). */
  add(rows: BinaryRows): void {
    if (this.#failure !== null) throw this.#failure;
    if (rows.count === 0) return;
    if (this.#inline !== null) return this.#inline.addBinary(rows);
    const values = rows.values.slice(0, rows.values.length);
    const pool = this.#started();
    this.#send({ seq: this.#seq++, rows: { count: rows.count, values, texts: rows.texts } }, rows.count, [values.buffer], pool);
  }

  /** Resolves once the rows pending are few enough to hand over more (MAX_PENDING_ROWS). */
  async room(): Promise<void> {
    if (this.#pending > MAX_PENDING_ROWS) await new Promise<void>((resolve) => (this.#drained = resolve));
    if (this.#failure !== null) throw this.#failure;
  }

  /** Ends the file: its last bytes written, what it holds. */
  async finish(): Promise<RunsParquetDigest> {
    if (this.#inline !== null) {
      const digest = this.#inline.finish();
      this.write(Buffer.concat(this.#inlineParts));
      return digest;
    }
    const pool = this.#started();
    this.#send({ seq: this.#seq++, finish: true }, 0, undefined, pool);
    await this.#tail;
    if (this.#failure !== null) throw this.#failure;
    if (this.#digest === null) throw new Error("the parquet thread answered every task but never finished the file (a bug)");
    return this.#digest;
  }

  close(): Promise<void> {
    return this.#pool?.close({ force: true }) ?? Promise.resolve();
  }

  #send(task: ParquetTask, rows: number, transferList?: ArrayBuffer[], pool = this.#pool!): void {
    this.#pending += rows;
    const answer = pool.run(task, transferList === undefined ? {} : { transferList });
    // Written in the order the tasks were given (one thread takes them in turn), whatever order their answers settle in.
    this.#tail = this.#tail
      .then(() => answer)
      .then(({ parts, digest }) => {
        if (this.#failure === null) for (const part of parts) this.write(part);
        if (digest !== undefined) this.#digest = digest;
      })
      .catch((error: unknown) => {
        this.#failure ??= error;
      })
      .finally(() => {
        this.#pending -= rows;
        if (this.#drained !== null && (this.#pending <= MAX_PENDING_ROWS || this.#failure !== null)) {
          this.#drained();
          this.#drained = null;
        }
      });
    // The answer is awaited through #tail (its failure kept there): not left unhandled here.
    answer.catch(() => {});
  }
}
