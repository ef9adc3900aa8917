import { tableLayout } from "../run/table-layout.js";
import { describeBounds, recordedBounds } from "../bounds/bound-choice.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { parseExperiment } from "../experiment/load-experiment.js";
import { OUTPUT_FILES, ResultWriter, TABLE_FILES, writeManifest } from "../export/result-writer.js";
import { planSweep } from "../sweep/plan-sweep.js";
import { withRecordedDefaults } from "./recorded-experiment.js";
import { recordedDataVersion, runsManifest, type Manifest, type RunsManifest } from "./manifest.js";
import { RecordStream, type RunStream } from "./recorded-runs.js";
import { BlockSplit, splitOf } from "../sweep/shard.js";
import { missingRun, missingRunIn } from "./missing-run.js";
import { splitCostOf, type SplitModel } from "../sweep/estimate-run-cost.js";
import { runStreamOf } from "./read-result-folder.js";
import { lockResultFolder } from "./folder-lock.js";
import { checkResultFolder, inspectResultFolder, MERGE_STAGING, removeLeftovers } from "./result-folder.js";
import { finishStagedMove, MOVE_JOURNAL, moveStagedResults } from "./staged-move.js";
import { alreadyComplete } from "./prepare-folder.js";
import { checkTables, recordTables } from "./table-record.js";
import type { RunCounts, RunReport } from "./run-experiment.js";
import { TableSink } from "./table-sink.js";
import { toolInfo, toolVersion } from "./tool-info.js";
import { writeViolationData } from "./write-violation-data.js";
import { makeFolder, removePath } from "../files/checked-fs.js";
import { MinHeap } from "../math/min-heap.js";
import { parquetCreatedBy, RUNS_PARQUET } from "./write-runs-parquet.js";
import { AtomicFileWriter } from "../files/atomic-file.js";
import { RunsParquetWriter, type RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { optionsText } from "../vocabulary/option-words.js";
import type { RunRow, RunSpec } from "../run/run-types.js";
import { checkRecord, readShardManifest, refuseOtherSplit, refuseOverlap } from "./shard-folders.js";
/**
 * Joins the folders of every shard of one sweep into `outDir`: the four tables come out byte-identical
 * to an unsharded run's (the rows are the same, merged back into sweep order, and the summaries are
 * computed from them). Refuses, naming them, shards of different experiments, data versions or (unless
 * allowMixedVersions) tool versions, missing, repeated or unfinished shards, and a run found in no shard or in two.
 */
export async function mergeShards(
  outDir: string,
  shardDirs: readonly string[],
  options: {
    readonly overwrite?: boolean;
    /** Merge shards written by different versions of the tool (refused by default: a version may change a column). */
    readonly allowMixedVersions?: boolean;
    /** Also write runs.parquet (as run --parquet writes it). */
    readonly parquet?: boolean;
    /** Write the runs as runs.parquet only (implies parquet): no runs.jsonl, no runs.csv. */
    readonly parquetOnly?: boolean;
    readonly onNote?: (text: string) => void;
  } = {},
): Promise<RunReport> {
  const startedAt = new Date();
  checkResultFolder(outDir, "merge's output folder");
  if (shardDirs.length === 0) throw new InputError("merge needs the shard folders to join");
  refuseOverlap(outDir, shardDirs);
  // Each shard's manifest is read, checked against the first and cut to what reading its runs needs: 10⁵
  // whole manifests held through the merge were most of its memory.
  const first = readShardManifest(shardDirs[0]!);
  const manifests: RunsManifest[] = [];
  let allCurrent = true;
  const count = first.shard.count;
  const byIndex = new Map<number, string>();
  shardDirs.forEach((dir, k) => {
    const manifest = k === 0 ? first : readShardManifest(dir);
    manifests.push(runsManifest(manifest));
    if (manifest.tool.version !== toolVersion().version) allCurrent = false;
    if (manifest.experiment.hash !== first.experiment.hash) {
      throw new InputError(`${dir} is a shard of a different experiment file than ${shardDirs[0]} (sha256 ${manifest.experiment.hash.slice(0, 12)}… against ${first.experiment.hash.slice(0, 12)}…)`);
    }
    const files = (m: typeof manifest) => JSON.stringify(Object.entries(m.resolved.dataFiles ?? {}).map(([name, info]) => [name, info.sha256]));
    if (files(manifest) !== files(first)) {
      throw new InputError(`${dir} read other data files than ${shardDirs[0]} (a data file changed between the shards' runs): rerun the shards on the same files`);
    }
    const plugins = (m: typeof manifest) => JSON.stringify(Object.entries(m.resolved.plugins ?? {}).map(([name, info]) => [name, info.sha256]));
    if (plugins(manifest) !== plugins(first)) {
      throw new InputError(`${dir} loaded other plug-in files than ${shardDirs[0]} (a plug-in changed between the shards' runs): rerun the shards with the same plug-ins`);
    }
    if (recordedDataVersion(manifest) !== recordedDataVersion(first)) {
      throw new InputError(
        `${dir} holds data version ${recordedDataVersion(manifest)}, ${shardDirs[0]} data version ${recordedDataVersion(first)}: the shards drew different data; rerun them with one data version`,
      );
    }
    const bounds = (m: typeof manifest) => describeBounds(recordedBounds(m.resolved));
    if (bounds(manifest) !== bounds(first)) {
      throw new InputError(`${dir} computed bounds ${bounds(manifest)}, ${shardDirs[0]} bounds ${bounds(first)}: a column would be empty in some runs only; rerun the shards with one "bounds"`);
    }
    if (manifest.tool.version !== first.tool.version) {
      if (!options.allowMixedVersions) {
        throw new InputError(
          `${dir} was written by perceptron-lab ${manifest.tool.version}, ${shardDirs[0]} by ${first.tool.version}: a version may compute a column differently; rerun the shards with one version, or pass --allow-mixed-versions`,
        );
      }
      options.onNote?.(`${dir} was written by perceptron-lab ${manifest.tool.version}, ${shardDirs[0]} by ${first.tool.version}: merged as asked (--allow-mixed-versions)`);
    }
    const { index, count: n } = manifest.shard;
    if (n !== count) throw new InputError(`${dir} is shard ${index}/${n}, but ${shardDirs[0]} is one of ${count}`);
    refuseOtherSplit(dir, manifest.shard, shardDirs[0]!, first.shard);
    const twin = byIndex.get(index);
    if (twin !== undefined) throw new InputError(`${twin} and ${dir} are both shard ${index}/${count}`);
    byIndex.set(index, dir);
  });
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new InputError(`shard${missing.length > 1 ? "s" : ""} ${missing.map((index) => `${index}/${count}`).join(", ")} missing`);

  // The plan needs the data files' shapes only, which the manifest records: the files themselves need not be here.
  const experiment = parseExperiment(withRecordedDefaults(first), first.experiment.name, `${join(shardDirs[0]!, OUTPUT_FILES.manifest)} (experiment)`, {
    recorded: first.resolved.dataFiles ?? {},
    recordedOnly: true,
    ...(first.resolved.plugins === undefined ? {} : { recordedPlugins: first.resolved.plugins }),
  });
  const plan = planSweep(experiment);
  // (A folder whose last merge was killed in its final move is finished under the lock first.)
  if (inspectResultFolder(outDir).hasResults && !options.overwrite && !existsSync(join(outDir, MOVE_JOURNAL))) throw new InputError(`${outDir} already holds results: ${optionsText("overwrite")} replaces them`);
  const lock = lockResultFolder(outDir, "merge");
  try {
    if (lock.note !== null) options.onNote?.(`${outDir}: ${lock.note}`);
    if (finishStagedMove(outDir)) {
      options.onNote?.(`${outDir}: finished the final move of a merge that was interrupted: the folder holds that merge's results`);
      // That merge was of these shards (the same experiment, the same shard count), and it is complete and whole:
      // the job is done, not refused as "already holds results" (a requeued merge job read that as a failure).
      const finished = inspectResultFolder(outDir).manifest;
      if (!options.overwrite && finished?.status === "complete" && finished.experiment.hash === first.experiment.hash && finished.shard === null) {
        checkTables(outDir, finished, null, { deep: true });
        return alreadyComplete(outDir, 0, plan);
      }
    }
    removeLeftovers(outDir);
    if (inspectResultFolder(outDir).hasResults && !options.overwrite) throw new InputError(`${outDir} already holds results: ${optionsText("overwrite")} replaces them`);
    // The tables are written in a staging folder and moved into place only once every record of every shard
    // has been read and checked: a refusal or a failure part way (a run missing, a changed record, a full
    // disk) leaves the output folder as it was, the results it held (--overwrite) included.
    const staging = join(outDir, `${MERGE_STAGING}${process.pid}`);
    makeFolder(staging);
    try {
      const copyRecords = allCurrent;
      const parquetOnly = options.parquetOnly === true;
      const tables = { parquet: parquetOnly || options.parquet === true, parquetOnly };
      const report = await merge(staging, shardDirs, manifests, {
        outDir,
        copyRecords,
        startedAt,
        first,
        experiment,
        plan,
        lock,
        tables,
        mergedFrom: Array.from({ length: count }, (_, k) => byIndex.get(k + 1)!),
      });
      lock.check();
      moveStagedResults(staging, outDir);
      return report;
    } finally {
      removePath(staging, { recursive: true });
    }
  } finally {
    lock.release();
  }
}

interface MergeSetup {
  /** Where the staged files will be moved. */
  readonly outDir: string;
  /** Every shard was written by this version of the tool: its records are copied as they are. */
  readonly copyRecords: boolean;
  readonly startedAt: Date;
  readonly first: Manifest;
  readonly experiment: ReturnType<typeof parseExperiment>;
  readonly plan: ReturnType<typeof planSweep>;
  readonly lock: ReturnType<typeof lockResultFolder>;
  readonly mergedFrom: readonly string[];
  /** The run tables to write: runs.parquet too, or only. */
  readonly tables: { readonly parquet: boolean; readonly parquetOnly: boolean };
}

/**
 * The merge itself, into an empty staging folder (see mergeShards): the tables, the violating runs' data
 * and, once every record of every shard has been read and checked, the manifest that says `complete`.
 */
async function merge(
  staging: string,
  shardDirs: readonly string[],
  manifests: readonly RunsManifest[],
  { outDir, startedAt, first, experiment, plan, lock, mergedFrom, copyRecords, tables }: MergeSetup,
): Promise<RunReport> {
  const split = splitOf(first.shard!); // the shards' split model (merge refused shards cut by two)
  const text = !tables.parquetOnly;
  const layout = tableLayout(plan.settings.extraBounds);
  const sink = new TableSink(new ResultWriter(staging, { runsJsonl: text, runsCsv: text, layout }));
  // runs.parquet is written as the rows come (not from a merged runs.jsonl, which --parquet-only never writes).
  const parquetFile = tables.parquet ? new AtomicFileWriter(join(staging, RUNS_PARQUET)) : null;
  const parquet = parquetFile === null ? null : new RunsParquetWriter((part) => parquetFile.append(part), undefined, layout, parquetCreatedBy());
  let runsParquet: RunsParquetDigest | null = null;
  try {
    // Records written by this version are copied as they are (their checks verified on reading); those of
    // another (--allow-mixed-versions) are written as this version writes them.
    // Shards of this version hold the block split's runs (shard.ts), each a stretch of the sweep's: read one
    // block after another, one shard at a time. Others (--allow-mixed-versions, runs kept as runs.parquet
    // only) by a k-way merge, which needs no split but holds a record and a read chunk of every shard.
    if (copyRecords && mergedFrom.every((dir) => existsSync(join(dir, OUTPUT_FILES.runsJsonl)))) await mergeBlocks(sink, parquet, mergedFrom, plan, text, split);
    else await mergeRows(sink, parquet, shardDirs, manifests, plan, copyRecords && text, mergedFrom, split);
    sink.close(true);
    if (parquet !== null) {
      runsParquet = parquet.finish();
      parquetFile!.commit();
    }
  } catch (error) {
    sink.abandon();
    parquetFile?.abandon();
    throw error;
  }
  if (sink.counts.recorded !== plan.runCount || sink.writer.summaryRows !== plan.pointCount) {
    throw new Error(`${outDir}: merged ${sink.counts.recorded} of ${plan.runCount} runs and ${sink.writer.summaryRows} of ${plan.pointCount} summary rows, so it is not marked complete (a bug: please report it)`);
  }
  const endedAt = new Date();
  const counts: RunCounts = { runs: plan.runCount, points: plan.pointCount, reused: 0, ...sink.counts };
  const violationData = writeViolationData(staging, experiment, sink.firstViolations, undefined, outDir);
  lock.check();
  writeManifest(staging, {
    status: "complete",
    tool: toolInfo(),
    experiment: first.experiment,
    resolved: experiment,
    shard: null,
    mergedFrom,
    options: tables,
    skipped: first.skipped,
    counts,
    ...(runsParquet === null ? {} : { runsParquet }),
    // The tables as they stand in the staging folder, moved as they are (table-record.ts).
    tables: recordTables(staging, TABLE_FILES),
    violations: violationData,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    wallSeconds: (endedAt.getTime() - startedAt.getTime()) / 1000,
  });
  return {
    outcome: "complete",
    outDir,
    threads: 0,
    counts,
    skipped: plan.skipped,
    ...sink.kept,
    violationData,
    wallSeconds: (endedAt.getTime() - startedAt.getTime()) / 1000,
  };
}

/**
 * The shards' records merged back into sweep order, each run exactly once: a k-way merge (the shard whose
 * next record has the lowest run on top of a heap, O(log shards) a run). Each shard's runs.jsonl is read a
 * chunk at a time and closed in between, so memory (MERGE_READ_BYTES over all shards, at least
 * MIN_CHUNK_BYTES each) and open files (one) hardly grow with the number of shards. Yields to the
 * event loop now and then (the lock stays fresh).
 */
async function mergeRows(
  sink: TableSink,
  parquet: RunsParquetWriter | null,
  shardDirs: readonly string[],
  manifests: readonly RunsManifest[],
  plan: ReturnType<typeof planSweep>,
  copyRecords: boolean,
  byIndex: readonly string[],
  split: SplitModel,
): Promise<void> {
  const runCount = plan.runCount;
  // Every record checked against the run the sweep's split puts there (its place, seed and parameters): a
  // record of another sweep or seed spliced into a shard carries a valid check, and would pass otherwise.
  const expected = plan.runs();
  const chunkBytes = Math.max(MIN_CHUNK_BYTES, Math.min(MAX_CHUNK_BYTES, Math.floor(MERGE_READ_BYTES / shardDirs.length)));
  // One read buffer for all: a shard's chunk is decoded into its lines before another shard reads.
  const buffer = Buffer.alloc(chunkBytes);
  // A record's line is needed only to copy it (a runs.parquet shard's is formatted for that).
  const next = (stream: RunStream) => {
    if (copyRecords) return stream.takeLine();
    const row = stream.take();
    return row === null ? null : { row, line: "" };
  };
  const heads = new MinHeap<{ readonly stream: RunStream; readonly dir: string; row: RunRow; line: string }>((a, b) => a.row.run < b.row.run);
  for (const [k, dir] of shardDirs.entries()) {
    // A shard's runs.jsonl, or its runs.parquet where it kept only that (a row group at a time: see shardRowGroup).
    const stream = runStreamOf(dir, manifests[k]!, { chunkBytes, reopen: true, buffer });
    const first = next(stream);
    if (first !== null) heads.push({ stream, dir, ...first });
  }
  const out = new MergedRows(sink, parquet, copyRecords);
  for (let run = 0; ; run++) {
    const head = heads.peek();
    if (head === undefined) {
      if (run < runCount) throw missingRun(run, plan, byIndex, split);
      break;
    }
    const { row, dir } = head;
    if (row.run !== run) {
      throw row.run < run ? new InputError(`run ${row.run} is in two shards (again in ${dir})`) : missingRun(run, plan, byIndex, split);
    }
    if (run >= runCount) throw new InputError(`${dir} holds run ${run}, but the sweep has ${runCount} runs`);
    checkRecord(dir, row, expected.next().value as RunSpec);
    const full = out.add(row, head.line);
    const following = next(head.stream);
    if (following === null) heads.pop();
    else {
      head.row = following.row;
      head.line = following.line;
      heads.replaceTop(head);
    }
    if (full) await out.yieldTurn();
  }
  out.flush();
}

/**
 * Where a merge's records go, in sweep order: runs.parquet and the tables (through the sink) a few thousand
 * at a time, with the records' lines where they are copied as they are; between two writes the event loop
 * gets a turn (the lock stays fresh).
 */
class MergedRows {
  readonly #rows: RunRow[] = [];
  #records = "";

  constructor(
    readonly sink: TableSink,
    readonly parquet: RunsParquetWriter | null,
    readonly copyRecords: boolean,
  ) {}

  /** Adds a record; true when the rows were written (then await yieldTurn). */
  add(row: RunRow, line: string): boolean {
    this.#rows.push(row);
    if (this.copyRecords) this.#records += `${line}\n`;
    if (this.#rows.length < MERGED_ROWS) return false;
    this.flush();
    return true;
  }

  flush(): void {
    this.parquet?.add(this.#rows);
    this.sink.writeRows(this.#rows.splice(0), this.copyRecords ? this.#records : undefined);
    this.#records = "";
  }

  yieldTurn(): Promise<void> {
    return new Promise((resolve) => setImmediate(resolve));
  }
}

/** Records a merge writes at a time. */
const MERGED_ROWS = 4096;

/**
 * The shards' records in sweep order, block by block as the split lays them out (BlockSplit.blockRuns):
 * each block read from its shard's runs.jsonl where the shard's last block ended (a byte offset), one
 * shard open at a time, in reads of up to BLOCK_READ_BYTES. Memory is one block's read whatever the
 * number of shards (a k-way merge holds a record and a chunk of every shard: 1.2 GB at 10⁵ shards), and a
 * shard file is opened once a block (8 times a shard) plus a read a MiB, not once every few KiB. Each record
 * is checked as mergeRows checks it: in its place, of this sweep, each run once.
 */
async function mergeBlocks(sink: TableSink, parquet: RunsParquetWriter | null, byIndex: readonly string[], plan: ReturnType<typeof planSweep>, copyRecords: boolean, model: SplitModel): Promise<void> {
  const runCount = plan.runCount;
  const expected = plan.runs();
  const split = new BlockSplit(plan, byIndex.length, splitCostOf(plan.settings.maxEpochs, model));
  const positions = byIndex.map(() => ({ offset: 0, line: 0, previousRun: -1 }));
  const buffer = Buffer.alloc(BLOCK_READ_BYTES);
  const streamOf = (shard: number, runs: number) =>
    new RecordStream(join(byIndex[shard - 1]!, OUTPUT_FILES.runsJsonl), { chunkBytes: Math.min(BLOCK_READ_BYTES, Math.max(MIN_CHUNK_BYTES, runs * RECORD_BYTES)), reopen: true, buffer }, positions[shard - 1]);
  const out = new MergedRows(sink, parquet, copyRecords);
  let run = 0;
  for (const block of split.blockRuns()) {
    const dir = byIndex[block.shard - 1]!;
    const stream = streamOf(block.shard, block.runs);
    for (let k = 0; k < block.runs; k++, run++) {
      const record = copyRecords ? stream.takeLine() : ((row) => (row === null ? null : { row, line: "" }))(stream.take());
      if (record === null || record.row.run > run) throw missingRunIn(run, runCount, block.shard, byIndex.length, dir);
      if (record.row.run < run) throw new InputError(`run ${record.row.run} is in two shards (again in ${dir})`);
      checkRecord(dir, record.row, expected.next().value as RunSpec);
      if (out.add(record.row, record.line)) await out.yieldTurn();
    }
    positions[block.shard - 1] = stream.position;
  }
  // Every shard read to its end: a record left over is a run given twice, or one the sweep does not have.
  byIndex.forEach((dir, k) => {
    const left = streamOf(k + 1, 1).peek();
    if (left === null) return;
    throw new InputError(left.run >= runCount ? `${dir} holds run ${left.run}, but the sweep has ${runCount} runs` : `run ${left.run} is in two shards (again in ${dir})`);
  });
  out.flush();
}

/** What a read of a block asks for a record (runs.jsonl holds ~1.6–2.5 KB a record), and the most it reads at a time. */
const RECORD_BYTES = 4 << 10;
const BLOCK_READ_BYTES = 1 << 20;

/**
 * What merge holds of all shards' runs.jsonl at a time (as the lines of each shard's last chunk), and the
 * bounds on one shard's chunk: at 1000 shards 16 KiB each, about ten records a read.
 */
const MERGE_READ_BYTES = 16 << 20;
const MAX_CHUNK_BYTES = 1 << 20;
const MIN_CHUNK_BYTES = 4 << 10;
