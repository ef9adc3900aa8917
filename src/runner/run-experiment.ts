import { finishStagedMove } from "./staged-move.js";
import { existsSync } from "node:fs";
import { availableParallelism } from "node:os";
import { join } from "node:path";
import type { Experiment } from "../experiment/experiment.js";
import { InputError } from "../vocabulary/input-error.js";
import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { readRecordedDataSets } from "../experiment/read-data-files.js";
import { tableLayout } from "../run/table-layout.js";
import { OUTPUT_FILES, ResultWriter, TABLE_FILES, writeManifest } from "../export/result-writer.js";
import { removePath } from "../files/checked-fs.js";
import type { DataSets } from "../generators/generate-data.js";
import { BATCHES_PER_THREAD, DEFAULT_BATCH_OPTIONS, makeSegments, TIMED_BATCH_COST, type BatchOptions, type SweepItem } from "../sweep/make-segments.js";
import { batchOutput, type BatchOutput } from "../pool/batch-output.js";
import { RunPool } from "../pool/run-pool.js";
import { differingRunKey, type RunRow, type RunSpec } from "../run/run-types.js";
import { pointCostOf, SPLIT_MODEL, splitCostOf } from "../sweep/estimate-run-cost.js";
import { planSweep, type SweepPlan } from "../sweep/plan-sweep.js";
import { runSpecOf, type SweepPoint } from "../sweep/run-batch.js";
import { allRepeats, repeatsOf, shardRepeats, shardRuns, splitOf } from "../sweep/shard.js";
import { lockResultFolder, type FolderLock } from "./folder-lock.js";
import { RecordedRuns, refuseChangedParquet } from "./recorded-runs.js";
import { recordedParquetOnly, recordedRunsParquet, recordedTables, type Manifest } from "./manifest.js";
import { DEFAULT_RUN_TABLES } from "../vocabulary/result-files.js";
import { checkResultFolder, inspectResultFolder, PREVIOUS_JOURNAL, removeLeftovers } from "./result-folder.js";
import { SYNC_EVERY_MS, TableSink } from "./table-sink.js";
import { mainThreadCpuSeconds } from "./thread-cpu.js";
import { toolInfo } from "./tool-info.js";
import { writeViolationData } from "./write-violation-data.js";
import { completeRunsTables, parquetCreatedBy, parquetRowGroup, RUNS_PARQUET } from "./write-runs-parquet.js";
import { AtomicFileWriter } from "../files/atomic-file.js";
import { INLINE_PARQUET_RUNS, ParquetThread } from "../pool/parquet-thread.js";
import type { RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { optionsText } from "../vocabulary/option-words.js";
import { checkTables, recordTables } from "./table-record.js";
import type { RunCounts, RunExperimentOptions, RunReport } from "./run-options.js";
import { alreadyComplete, prepareFolder, type Previous } from "./prepare-folder.js";

export type { RunCounts, RunExperimentOptions, RunOutcome, RunReport } from "./run-options.js";

/** Where an experiment's results go when no folder is named: results/<name> under the working folder. */
export function defaultResultFolder(experiment: Pick<Experiment, "name">): string {
  return join("results", experiment.name);
}

/**
 * Runs an experiment's sweep through the worker pool and writes its result folder.
 *
 * Every invocation writes all four tables from the first run on, in sweep order, so they are identical
 * whatever the number of threads and however often the sweep was interrupted: a resume only takes the
 * rows a previous invocation recorded (runs.previous.jsonl) instead of computing them again. Batches are
 * handed out with a bounded number in flight; rows are written as they complete, in order, and synced
 * to disk every second, so a kill loses at most the runs in flight.
 */
/** The most worker threads a sweep takes (the command line's --threads says the same). */
export const MAX_POOL_THREADS = 256;

export async function runExperiment(loaded: LoadedExperiment, given: RunExperimentOptions = {}): Promise<RunReport> {
  const startedAt = new Date();
  const threads = given.threads ?? availableParallelism();
  // The command line checks --threads; the library's callers are checked here (NaN made a pool of no thread).
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_POOL_THREADS) {
    throw new InputError(`threads: ${String(threads)} must be a whole number from 1 to ${MAX_POOL_THREADS}`);
  }
  const plan = planSweep(loaded.experiment);
  const costOf = pointCostOf(loaded.experiment.maxEpochs);
  const outDir = given.outDir ?? defaultResultFolder(loaded.experiment);
  checkResultFolder(outDir, "--out");
  const lock = lockResultFolder(outDir, "run");
  try {
    if (lock.note !== null) given.onNote?.(`${outDir}: ${lock.note}`);
    if (finishStagedMove(outDir)) given.onNote?.(`${outDir}: finished the final move of a merge that was interrupted: the folder holds that merge's results`);
    removeLeftovers(outDir);
    // A resume keeps to the formats the folder's sweep was started with.
    const state = inspectResultFolder(outDir);
    const resumed = given.resume === true;
    // The run tables: as asked, else as the folder's sweep recorded them (a resume), else the experiment's.
    const recordedList = resumed ? recordedTables(state.manifest) ?? (recordedParquetOnly(state.manifest) ? ["parquet" as const] : null) : null;
    const tables = given.tables ?? (given.parquetOnly === true ? (["parquet"] as const) : null) ?? recordedList ?? loaded.experiment.tables ?? DEFAULT_RUN_TABLES;
    const parquetOnly = !tables.includes("csv") && !tables.includes("jsonl");
    // A shard is cut by the split model it was started with (a resume or rerun of a 0.14 shard: model 1); a new
    // one by this version's, recorded in its manifest.
    const recordedShard = resumed ? state.manifest?.shard ?? null : null;
    const shard = given.shard === undefined || given.shard === null ? null : { index: given.shard.index, count: given.shard.count, split: given.shard.split ?? (recordedShard === null ? SPLIT_MODEL : splitOf(recordedShard)) };
    const options: RunExperimentOptions = { ...given, tables, parquet: true, parquetOnly, ...(shard === null ? {} : { shard }) };
    const previous = prepareFolder(loaded, outDir, state, options);
    if (previous === "already-complete") {
      // Complete as recorded, or changed since (a table cut or edited, a manifest set to complete by hand).
      // Deep: every table's bytes, not only the sizes, since a folder called complete here is not read.
      checkTables(outDir, state.manifest!, null, { deep: true });
      const parquetDigest = recordedRunsParquet(state.manifest!);
      if (parquetDigest !== null && existsSync(join(outDir, RUNS_PARQUET))) refuseChangedParquet(join(outDir, RUNS_PARQUET), parquetDigest);
      completeRunsTables(outDir, state.manifest!, { parquetOnly });
      // A journal a kill left after the manifest recorded runs.parquet: its rows are in runs.parquet.
      if (recordedRunsParquet(inspectResultFolder(outDir).manifest) !== null) removeJournals(outDir);
      return alreadyComplete(outDir, threads, plan);
    }
    // The tables are written anew from the first run: a runs.parquet of an earlier invocation would not be theirs.
    removePath(join(outDir, RUNS_PARQUET));
    // The threads boot (~0.1 s: a thread, then the run pipeline's modules) while git is asked for the
    // tool's state and the manifest written.
    const dataSets = loaded.dataSets ?? readRecordedDataSets(loaded.experiment.dataFiles, loaded.path);
    // A shard's runs (from the points: cheap), kept as ranges to run them; its batches are cut from its own count.
    // What a shard's runs are cut by: its split model's costs (one closure for the ranges and any walk again).
    const shardCostOf = splitCostOf(loaded.experiment.maxEpochs, shard === null ? SPLIT_MODEL : splitOf(shard));
    const own = shard === null ? null : shardRuns(plan, shard, shardCostOf);
    const runsToDo = own === null ? plan.runCount : own.count;
    const batchOptions: BatchOptions = {
      targetCost: given.batch?.targetCost ?? (given.runTimeoutSeconds === undefined ? DEFAULT_BATCH_OPTIONS.targetCost : TIMED_BATCH_COST),
      // At least 16 batches a thread, even when each run is cheap: a window of 3 a thread is in flight, and an
      // interrupted sweep finishes those first (with 4 a thread, a short sweep or shard was mostly in flight
      // from the start, and a SIGTERM let it complete); the last batches also balance better. Sweeps of more
      // than 16 × 256 runs a thread keep the 256-run cap. A shard counts its own runs: cut from the sweep's
      // count, a shard of a few hundred runs was three batches, all in flight at once, and a SIGTERM let it complete.
      maxRuns: given.batch?.maxRuns ?? Math.max(1, Math.min(DEFAULT_BATCH_OPTIONS.maxRuns, Math.ceil(runsToDo / (threads * BATCHES_PER_THREAD)))),
    };
    const pool = new RunPool({
      threads,
      // A small sweep formats its own lines in its workers: an exporter thread's start costs more than the ~15 µs
      // a run it would take off them (as a parquet thread's does: INLINE_PARQUET_RUNS).
      ...(runsToDo <= INLINE_PARQUET_RUNS ? { exporters: 0 } : {}),
      ...(dataSets.size === 0 ? {} : { dataSets }),
      ...(loaded.experiment.plugins === undefined ? {} : { plugins: Object.values(loaded.experiment.plugins) }),
      shortBatches: allShort(plan, (point) => costOf(point) <= batchOptions.targetCost),
      ...(options.runTimeoutSeconds === undefined ? {} : { runTimeoutSeconds: options.runTimeoutSeconds }),
      ...(options.workerMemoryMb === undefined ? {} : { workerMemoryMb: options.workerMemoryMb }),
      ...(options.faults === undefined ? {} : { faults: options.faults }),
    });
    try {
      return await sweep({ loaded, options, startedAt, threads, plan, own, shardCostOf, batchOptions, costOf, outDir, previous, pool, lock, dataSets });
    } finally {
      await pool.close();
    }
  } finally {
    lock.release();
  }
}

interface SweepSetup {
  readonly loaded: LoadedExperiment;
  readonly options: RunExperimentOptions;
  readonly startedAt: Date;
  readonly threads: number;
  readonly plan: SweepPlan;
  readonly batchOptions: BatchOptions;
  readonly costOf: (point: SweepPoint) => number;
  /** Each run's cost as the shard's split model counts it (what its runs are cut by). */
  readonly shardCostOf: (point: SweepPoint) => number;
  /** A shard's runs (shardRuns), or null for a whole sweep. */
  readonly own: ReturnType<typeof shardRuns> | null;
  readonly outDir: string;
  /** What a resume can reuse (see prepareFolder). */
  readonly previous: Previous | null;
  readonly pool: RunPool;
  readonly lock: FolderLock;
  /** The csv generator's data sets (empty without). */
  readonly dataSets: DataSets;
}

/** runExperiment's work once the folder is checked and the pool started: the sweep, its tables and manifests. */
async function sweep({ loaded, options, startedAt, threads, plan, own, shardCostOf, batchOptions, costOf, outDir, previous, pool, lock, dataSets }: SweepSetup): Promise<RunReport> {
  const { experiment } = loaded;
  const recorded = previous === null ? null : new RecordedRuns(previous.open());
  const reusable = (row: RunRow, spec: RunSpec) =>
    previous !== null && previous.settingsMatch && sameRun(row, spec) && (row.status === "ok" || !options.retryErrors);

  // The coordinator's own cost, for the manifest: its thread's CPU time, and its event loop's busy time.
  const busyAtStart = performance.eventLoopUtilization();
  const cpuAtStart = mainThreadCpuSeconds();
  const shard = options.shard ?? null;
  const runCount = own === null ? plan.runCount : own.count;
  const tool = toolInfo(); // asks git three times: once for both manifests
  const manifest = (status: Manifest["status"], extra: Record<string, unknown>) => {
    lock.check();
    writeManifest(outDir, {
      status,
      tool,
      experiment: { path: loaded.path, hash: loaded.hash, name: experiment.name, source: loaded.source, ...(loaded.overrides ? { overrides: loaded.overrides } : {}) },
      resolved: experiment,
      shard,
      options: {
        threads,
        outDir,
        batch: batchOptions,
        argv: options.argv ?? null,
        resume: options.resume ?? false,
        retryErrors: options.retryErrors ?? false,
        parquet: true,
        parquetOnly: options.parquetOnly ?? false,
        tables: options.tables,
      },
      skipped: plan.skipped,
      startedAt: startedAt.toISOString(),
      ...extra,
    });
  };
  // The manifest before the tables: a kill in between leaves a folder that a plain --resume continues.
  manifest("running", { counts: { runs: runCount, recorded: 0, errors: 0 } });
  const views = options.tables ?? DEFAULT_RUN_TABLES;
  // A view the sweep does not keep, left by an earlier one (a folder before 0.16 resumed with --tables parquet), goes.
  for (const [view, file] of [["csv", OUTPUT_FILES.runsCsv], ["jsonl", OUTPUT_FILES.runsJsonl]] as const) if (!views.includes(view)) removePath(join(outDir, file));
  const writer = new ResultWriter(outDir, { summaries: shard === null, runsCsv: views.includes("csv"), runsJsonl: views.includes("jsonl"), journal: true, layout: tableLayout(plan.settings.extraBounds) });
  // runs.parquet is made as the rows come, on a thread of its own (parquet-thread.ts), into a temporary file
  // renamed into place once complete; the journal stays the record until the manifest records the file.
  const parquetFile = new AtomicFileWriter(join(outDir, RUNS_PARQUET));
  const parquet = new ParquetThread(
    { rowGroup: parquetRowGroup(shard), ...(plan.settings.extraBounds === undefined ? {} : { extraBounds: plan.settings.extraBounds }), createdBy: parquetCreatedBy() },
    (part) => parquetFile.append(part),
    runCount,
  );
  const sink = new TableSink(writer, shard === null, parquet);
  // The lines of the views the folder writes, and no others (none for --tables parquet).
  const tables = writer.runTables;
  let reused = 0;
  // The sweep (or shard) in order: each run is recorded already (and reused) or still to do. A whole
  // sweep with nothing recorded goes point by point, without a spec (nor a seed to hash) per run.
  function* items(): Generator<SweepItem> {
    if (shard === null && recorded === null) {
      for (const point of plan.points()) yield { todo: { point, from: 0, to: plan.repeats } };
      return;
    }
    for (const { point, repeat } of shard === null ? allRepeats(plan) : own?.ranges ? repeatsOf(own.ranges) : shardRepeats(plan, shard, shardCostOf)) {
      const row = recorded?.rowAt(point.firstRun + repeat) ?? null;
      yield row !== null && reusable(row, runSpecOf(plan.settings, point, repeat)) ? { recorded: row } : { todo: { point, from: repeat, to: repeat + 1 } };
    }
  }

  let interrupted = false;
  // A window of segments in flight, consumed oldest first: workers stay busy while rows are written in order.
  const window: Promise<BatchOutput>[] = [];
  const limit = threads * 3;
  const consume = (output: BatchOutput) => {
    sink.write(output);
    options.onProgress?.(sink.counts.recorded, runCount);
  };
  // The oldest batch in flight; while it takes long, what was written before it is synced every second.
  const next = async (): Promise<BatchOutput> => {
    const oldest = window.shift()!;
    for (;;) {
      let timer: NodeJS.Timeout | undefined;
      const tick = new Promise<null>((resolve) => (timer = setTimeout(resolve, SYNC_EVERY_MS, null)));
      const output = await Promise.race([oldest, tick]);
      clearTimeout(timer);
      if (output !== null) return output;
      sink.syncIfDue();
    }
  };
  try {
    for (const segment of makeSegments(items(), costOf, batchOptions)) {
      if (options.signal?.aborted) {
        interrupted = true;
        break;
      }
      if ("recorded" in segment) {
        reused += segment.recorded.length;
        window.push(Promise.resolve(batchOutput(segment.recorded, { tables, layout: writer.layout })));
      } else {
        window.push(pool.run({ settings: plan.settings, ranges: segment.ranges, tables }));
      }
      if (window.length >= limit) {
        consume(await next());
        await parquet.room();
      }
    }
    while (window.length > 0) {
      consume(await next());
      await parquet.room();
    }
    // The threads wind down while the last summaries are taken. An interrupted sweep writes the summaries
    // of the points it completed, not of the one it was in.
    const closing = pool.close();
    sink.close(!interrupted);
    await closing;
    if (interrupted) parquetFile.abandon();
  } catch (error) {
    // A failed write (or a record refused) stops the sweep: what is on disk stays whole and resumable.
    sink.abandon();
    parquetFile.abandon();
    await parquet.close();
    throw error;
  }
  if (!interrupted) checkComplete(outDir, { runs: sink.counts.recorded, plannedRuns: runCount, summaries: writer.summaryRows, plannedSummaries: shard === null ? plan.pointCount : 0 });
  const counts: RunCounts = { runs: runCount, points: plan.pointCount, reused, ...sink.counts };
  const violationData = writeViolationData(outDir, experiment, sink.firstViolations, dataSets);
  if (!interrupted && previous !== null) removePath(previous.path);
  // runs.parquet, the typed table every reader of a complete folder reads, complete: its last bytes, then in place.
  let runsParquet: RunsParquetDigest | null = null;
  try {
    if (!interrupted) {
      runsParquet = await parquet.finish();
      parquetFile.commit();
    }
  } catch (error) {
    parquetFile.abandon();
    throw error;
  } finally {
    await parquet.close();
  }
  const endedAt = new Date();
  const wallSeconds = (endedAt.getTime() - startedAt.getTime()) / 1000;
  // The process's peak resident memory so far (the coordinator and its threads share it), in MB.
  const peakRssMb = Math.round(process.resourceUsage().maxRSS / 1024);
  // The coordinator's cost: its thread's CPU time where Linux tells it, else its event loop's busy time
  // (which also counts time spent waiting for a core).
  const busySeconds = performance.eventLoopUtilization(busyAtStart).active / 1000;
  const cpuNow = mainThreadCpuSeconds();
  const cpuSeconds = cpuAtStart === null || cpuNow === null ? null : cpuNow - cpuAtStart;
  const ran = sink.counts.recorded - reused;
  const coordinator = { cpuSeconds, busySeconds, microsecondsPerRun: ran > 0 ? ((cpuSeconds ?? busySeconds) * 1e6) / ran : null };
  // The tables that stay, as they stand now: the views kept, and a whole sweep's summaries.
  const kept = (shard === null ? TABLE_FILES : [OUTPUT_FILES.runsJsonl, OUTPUT_FILES.runsCsv]).filter((name) => (name === OUTPUT_FILES.runsJsonl ? views.includes("jsonl") : name === OUTPUT_FILES.runsCsv ? views.includes("csv") : true));
  manifest(interrupted ? "interrupted" : "complete", {
    counts,
    violations: violationData,
    ...(runsParquet === null ? {} : { runsParquet }),
    ...(interrupted ? {} : { tables: recordTables(outDir, kept) }),
    endedAt: endedAt.toISOString(),
    wallSeconds,
    peakRssMb,
    coordinator,
  });
  // Only once the manifest records runs.parquet: a kill before leaves the journal, which a resume finishes from.
  if (runsParquet !== null) removeJournals(outDir);
  return {
    outcome: interrupted ? "interrupted" : "complete",
    outDir,
    threads,
    counts,
    skipped: plan.skipped,
    ...sink.kept,
    violationData,
    wallSeconds,
  };
}

/**
 * The invariant a `complete` manifest promises, checked after every table is closed (flushed, synced, and
 * its size on disk checked): every planned run recorded, and a summary row for every grid point. A
 * mismatch is a bug; the folder is left unfinished (a --resume completes it) rather than called complete.
 */
function checkComplete(outDir: string, c: { runs: number; plannedRuns: number; summaries: number; plannedSummaries: number }): void {
  if (c.runs !== c.plannedRuns || c.summaries !== c.plannedSummaries) {
    throw new Error(
      `${outDir}: the sweep recorded ${c.runs} of ${c.plannedRuns} planned runs and ${c.summaries} of ${c.plannedSummaries} summary rows, ` +
        `so it is not marked complete (a bug: please report it; ${optionsText("resume")} finishes the folder)`,
    );
  }
}

/** A complete folder's journals, once its manifest records the runs.parquet made from them. */
function removeJournals(outDir: string): void {
  removePath(join(outDir, OUTPUT_FILES.runsJournal));
  removePath(join(outDir, PREVIOUS_JOURNAL));
}

/** No run of the sweep is estimated to cost more than a batch's target, so every batch is short (points streamed, not held). */
function allShort(plan: SweepPlan, short: (point: SweepPoint) => boolean): boolean {
  for (const point of plan.points()) if (!short(point)) return false;
  return true;
}

/** The identity of a run: its place, seed and every parameter. */
function sameRun(row: RunRow, spec: RunSpec): boolean {
  return differingRunKey(row, spec) === null;
}
