import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import type { planSweep } from "../sweep/plan-sweep.js";
import { recordedRunsParquet, type RunsManifest } from "./manifest.js";
import { ParquetRecordStream, RecordStream, type RunStream } from "./recorded-runs.js";
import { BlockSplit } from "../sweep/shard.js";
import { missingRun, missingRunIn } from "./missing-run.js";
import { splitCostOf, type SplitModel } from "../sweep/estimate-run-cost.js";
import { runStreamOf } from "./read-result-folder.js";
import type { TableSink } from "./table-sink.js";
import { MinHeap } from "../math/min-heap.js";
import { RUNS_PARQUET } from "./write-runs-parquet.js";
import type { RunsParquetWriter } from "../export/runs-parquet-writer.js";
import { recordedLayout } from "../run/table-layout.js";
import type { RunRow, RunSpec } from "../run/run-types.js";
import { checkRecord } from "./shard-folders.js";

/*
 * How merge reads its shards' runs back into sweep order (merge-shards.ts holds the rest of merge): block by
 * block as the split lays them out, from each shard's runs.parquet (0.16 on) or runs.jsonl (before), or by a
 * k-way merge where the shards cannot be read so (mixed versions).
 */

/**
 * The shards' records merged back into sweep order, each run exactly once: a k-way merge (the shard whose
 * next record has the lowest run on top of a heap, O(log shards) a run). Each shard's runs.jsonl is read a
 * chunk at a time and closed in between, so memory (MERGE_READ_BYTES over all shards, at least
 * MIN_CHUNK_BYTES each) and open files (one) hardly grow with the number of shards. Yields to the
 * event loop now and then (the lock stays fresh).
 */
export async function mergeRows(
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
export class MergedRows {
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
 * each block read from its shard where the shard's last block ended, one shard open at a time: from its
 * runs.parquet (shards of 0.16 on: `source` "parquet", a row group decoded at a time, the file checked against
 * its manifest at its first block) or its runs.jsonl (before: "jsonl", from a byte offset, in reads of up to
 * BLOCK_READ_BYTES). Memory is one block's read whatever the number of shards (a k-way merge holds a record
 * and a chunk of every shard: 1.2 GB at 10⁵ shards), and a shard file is opened once a block (8 times a shard)
 * plus a read a MiB or a row group. Each record is checked as mergeRows checks it: in its place, of this
 * sweep, each run once.
 */
export async function mergeBlocks(
  sink: TableSink,
  parquet: RunsParquetWriter | null,
  byIndex: readonly string[],
  manifests: readonly RunsManifest[],
  plan: ReturnType<typeof planSweep>,
  { copyRecords, model, source }: { readonly copyRecords: boolean; readonly model: SplitModel; readonly source: "parquet" | "jsonl" },
): Promise<void> {
  const runCount = plan.runCount;
  const expected = plan.runs();
  const split = new BlockSplit(plan, byIndex.length, splitCostOf(plan.settings.maxEpochs, model));
  const positions: unknown[] = byIndex.map(() => undefined);
  const buffer = source === "jsonl" ? Buffer.alloc(BLOCK_READ_BYTES) : null;
  const streamOf = (shard: number, runs: number): RunStream & { readonly position: unknown } => {
    const dir = byIndex[shard - 1]!;
    if (source === "parquet") {
      const manifest = manifests[shard - 1]!;
      return new ParquetRecordStream(join(dir, RUNS_PARQUET), recordedRunsParquet(manifest)!, recordedLayout(manifest), positions[shard - 1] as { row: number; previousRun: number } | undefined);
    }
    const chunkBytes = Math.min(BLOCK_READ_BYTES, Math.max(MIN_CHUNK_BYTES, runs * RECORD_BYTES));
    return new RecordStream(join(dir, OUTPUT_FILES.runsJsonl), { chunkBytes, reopen: true, buffer: buffer! }, (positions[shard - 1] as { offset: number; line: number; previousRun: number } | undefined) ?? { offset: 0, line: 0, previousRun: -1 });
  };
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

/** Whether every shard's runs can be read block by block from `source` (see mergeBlocks). */
export function blockSource(byIndex: readonly string[], manifests: readonly RunsManifest[], copyRecords: boolean): "parquet" | "jsonl" | null {
  if (manifests.every((manifest) => manifest.options?.tables !== undefined && recordedRunsParquet(manifest) !== null)) return "parquet";
  if (copyRecords && byIndex.every((dir) => existsSync(join(dir, OUTPUT_FILES.runsJsonl)))) return "jsonl";
  return null;
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
