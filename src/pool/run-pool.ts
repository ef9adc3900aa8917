import { availableParallelism } from "node:os";
import pLimit, { type LimitFunction } from "p-limit";
import { Piscina } from "piscina";
import type { DataSets } from "../generators/generate-data.js";
import { errorRow } from "../run/execute-run.js";
import { batchLength, batchSpecs, singleRuns, type RunBatch } from "../sweep/run-batch.js";
import { BOTH_RUN_TABLES } from "../export/run-lines.js";
import { batchOutput, joinOutputs, type BatchOutput } from "./batch-output.js";
import exportBatch, { type ExportTask } from "./exporter.js";
import { tableLayout } from "../run/table-layout.js";
import { openOutput, type PostedOutput } from "./output-ring.js";
import { shareDataSets } from "./shared-data-sets.js";
import { threadModule } from "./thread-module.js";
import type { TestFaults } from "./test-faults.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";

export interface RunPoolOptions {
  /** Worker threads; default: the machine's available parallelism. */
  readonly threads?: number;
  /** A batch that runs longer is stopped (its worker terminated) and its runs retried one by one. */
  readonly runTimeoutSeconds?: number;
  /** Heap limit of each worker (V8's old generation), in MB; a worker that exceeds it is replaced. */
  readonly workerMemoryMb?: number;
  /**
   * Every batch is short (tens of milliseconds; see makeSegments): each thread may then hold its next
   * batch while it runs one, and start it without waiting for the coordinator to hand it over. Ignored
   * with a time limit (a held batch's clock would run while it waits). Not for long batches: one held
   * by a busy thread cannot move to a thread that has become idle at the end of a sweep.
   */
  readonly shortBatches?: boolean;
  /** Faults planted for tests (see test-faults.ts). */
  readonly faults?: TestFaults;
  /** The csv generator's data sets, shared with every thread (SharedArrayBuffers, one copy). */
  readonly dataSets?: DataSets;
  /** The experiment's plug-in files (docs/plugins.md): each thread loads them, and refuses one whose bytes changed. */
  readonly plugins?: readonly PluginInfo[];
  /** Exporter threads (they format the workers' rows as the tables' lines; 0: the workers do); default: exporterThreads(threads). */
  readonly exporters?: number;
}

/**
 * The exporter threads beside `threads` workers on a machine of `cores`: one for every three workers, as
 * many as the workers leave cores free; none when they take every core, and the workers then format their
 * own rows. An exporter formats a small run's two lines and record check and takes its digest in ~15 µs (a
 * warm batch of 256 rows of n 100, d 10), about a third of what a worker takes to run it (npm run bench,
 * stages): three workers keep one busy on the smallest runs. On a core a worker also needs, an exporter
 * only moves that work (and adds a hop per batch and a thread to start: quick.json took ~0.15 s longer on 2
 * cores; 16 workers and 6 exporters on 16 cores, no faster on small runs and 14 % slower on heavy ones);
 * beside workers that leave a core idle, it takes the text off them (400 000 small runs on 16 cores: 1, 2, 4
 * and 8 workers 29, 35, 35 and 25 % faster). docs/architecture.md has the figures.
 */
export function exporterThreads(threads: number, cores = availableParallelism()): number {
  return Math.min(Math.ceil(threads / 3), Math.max(0, cores - threads));
}

/**
 * The young generation of each worker's heap, in MB. A run's garbage is small objects that die young (its
 * arrays live outside the heap), so a small nursery costs no speed, and it keeps each worker's resident
 * memory down: a 200 000-run sweep peaked at 236 MB of RSS with 16 MB, 291 MB with V8's default.
 */
const YOUNG_GENERATION_MB = 16;

/**
 * A pool of worker threads that run batches of runs (see RunBatch). The engine (Piscina) stays private.
 *
 * The worker is this folder's `worker` module with this module's own extension: `worker.js` when running
 * from the compiled output (dist/), `worker.ts` when running the TypeScript sources. In the latter case
 * the threads are started with tsx's loader (`--import tsx`), so the sources load whether or not the
 * parent process itself was started with it (tsx, vitest, node --import tsx). Otherwise the threads
 * inherit the parent's Node options (see typeScriptExecArgv).
 *
 * `run` never rejects: a batch whose worker crashes, runs out of memory or overruns the time limit is
 * retried run by run, so that only the culprit becomes an error row and every other run gets its result.
 */
export class RunPool {
  readonly #pool: Piscina<RunBatch, PostedOutput>;
  /**
   * The exporter threads (exporter.ts): a worker sends its rows as numbers, an exporter formats them as
   * the run tables' lines, so that no worker spends its time on text. Their tasks are not limited by
   * #slots: the sweep's window of batches in flight bounds them.
   */
  readonly #exporters: Piscina<ExportTask, PostedOutput> | null;
  /**
   * Tasks handed to Piscina at once. With a time limit, one per thread, so that a task starts when it is
   * handed over (its clock must not run while it waits behind others). Without one, two per thread, so
   * that a thread's next batch is ready when it posts a result: in Piscina's queue, or with shortBatches
   * in the thread's own (Piscina's concurrentTasksPerWorker), where it starts without a round trip
   * through the coordinator. Without that, the threads of a sweep of small runs waited about 8% of the
   * time for the coordinator, busy writing another batch's lines; with it, about 4% (cpu profiles).
   */
  readonly #slots: LimitFunction;
  readonly #timeoutMs: number | null;
  readonly #memoryMb: number | null;
  #closing: Promise<void> | null = null;
  readonly threads: number;

  constructor(options: RunPoolOptions = {}) {
    this.threads = options.threads ?? availableParallelism();
    this.#timeoutMs = options.runTimeoutSeconds === undefined ? null : timeoutMilliseconds(options.runTimeoutSeconds);
    this.#memoryMb = options.workerMemoryMb ?? null;
    this.#slots = pLimit(this.#timeoutMs === null ? 2 * this.threads : this.threads);
    // Compiled: the CommonJS entry (see worker-entry.cts); from the sources: worker.ts through tsx, or its bundle.
    const { filename, execArgv } = threadModule("worker", undefined, import.meta.url);
    const exporters = options.exporters ?? exporterThreads(this.threads);
    this.#pool = new Piscina({
      filename,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      concurrentTasksPerWorker: options.shortBatches === true && this.#timeoutMs === null ? 2 : 1,
      execArgv,
      workerData: {
        faults: options.faults,
        memoryMb: this.#memoryMb ?? undefined,
        dataSets: options.dataSets ? shareDataSets(options.dataSets) : undefined,
        plugins: options.plugins === undefined || options.plugins.length === 0 ? undefined : options.plugins,
        // Each thread hands its outputs over through a ring of shared memory (output-ring.ts; opened in run).
        rings: true,
        // Without exporters, each worker formats its own rows.
        format: exporters === 0,
      },
      resourceLimits: {
        maxYoungGenerationSizeMb: YOUNG_GENERATION_MB,
        ...(this.#memoryMb === null ? {} : { maxOldGenerationSizeMb: this.#memoryMb }),
      },
    });
    const exporter = threadModule("exporter", "exportBatch", import.meta.url);
    this.#exporters = exporters === 0 ? null : new Piscina({
      // The tests' bundle is the workers' module, which re-exports the exporter's task.
      filename: exporter.filename,
      ...(exporter.name === undefined ? {} : { name: exporter.name }),
      minThreads: exporters,
      maxThreads: exporters,
      idleTimeout: 60_000,
      execArgv,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // A pool closed by force (a sweep stopped by a failed write) may still hear a thread answer a task it has
    // given up: piscina emits that as an 'error' event ("Unexpected message from Worker"), which without a
    // listener ended the process before its one-line message (CI, the full-disk test, once under load).
    // While closing it is expected and dropped; at any other time it is thrown, as before.
    for (const pool of [this.#pool, this.#exporters]) {
      pool?.on("error", (error: unknown) => {
        if (this.#closing === null) throw error;
      });
    }
  }

  /**
   * Runs one batch; the output holds one row per run, in order, whatever happens. It may be views of a
   * thread's ring (an exporter's, or a worker's that formats its own rows): release it (BatchOutput.release)
   * once consumed.
   */
  async run(batch: RunBatch): Promise<BatchOutput> {
    let posted: PostedOutput;
    try {
      // The clock starts when a thread is free for the task, not while it waits behind others.
      posted = await this.#slots(() => {
        const signal = this.#timeoutMs === null ? null : AbortSignal.timeout(this.#timeoutMs);
        return this.#pool.run(batch, { signal });
      });
    } catch (error) {
      if (batchLength(batch) === 1) return batchOutput([errorRow(batchSpecs(batch)[0]!, this.#describe(error))], { tables: batch.tables, journal: batch.journal, layout: tableLayout(batch.settings.extraBounds) });
      return joinOutputs(await Promise.all(singleRuns(batch).map((single) => this.run(single))));
    }
    // Outside the retry: an exporter formats what the worker computed, and a failure there is a bug, not the runs'.
    if (this.#exporters === null) return openOutput(posted);
    const task: ExportTask = { posted, tables: batch.tables ?? BOTH_RUN_TABLES, journal: batch.journal ?? true, ...(batch.settings.extraBounds === undefined ? {} : { extraBounds: batch.settings.extraBounds }) };
    try {
      return openOutput(await this.#exporters.run(task));
    } catch (error) {
      // Closed while the batch was on its way (a sweep stopped by a failed write): formatted here, as an
      // exporter would, so that every batch still resolves to its rows and nothing rejects unheard.
      if (this.#closing === null) throw error;
      return openOutput(exportBatch(task));
    }
  }

  /** Stops the threads (any task still running is abandoned); later calls wait for the same. */
  close(): Promise<void> {
    this.#closing ??= Promise.all([this.#pool.close({ force: true }), this.#exporters?.close({ force: true })]).then(() => undefined);
    return this.#closing;
  }

  #describe(error: unknown): string {
    const code = (error as { code?: string }).code;
    const name = (error as { name?: string }).name;
    const message = error instanceof Error ? error.message : String(error);
    if (code === "ERR_WORKER_OUT_OF_MEMORY") return `the run's worker ran out of memory (limit ${this.#memoryMb ?? "default"} MB)`;
    if (name === "AbortError" || name === "TimeoutError") return `the run exceeded the time limit of ${this.#timeoutMs! / 1000} s`;
    return `the run's worker failed: ${message}`;
  }
}

/** The longest a timer can wait, in ms (2³¹ − 1, about 24.8 days): Node fires a longer one after 1 ms. */
export const MAX_TIMEOUT_MS = 2 ** 31 - 1;

/** A time limit in seconds as a timer takes it: whole milliseconds (rounded up), from 1 to MAX_TIMEOUT_MS. */
export function timeoutMilliseconds(seconds: number): number {
  const ms = Math.ceil(seconds * 1000);
  if (!(ms >= 1 && ms <= MAX_TIMEOUT_MS)) throw new RangeError(`a run timeout of ${seconds} s: must be from 0.001 to ${MAX_TIMEOUT_MS / 1000} s`);
  return ms;
}

export { typeScriptExecArgv } from "./thread-module.js";
