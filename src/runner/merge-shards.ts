import { tableLayout } from "../run/table-layout.js";
import { describeBounds, recordedBounds } from "../bounds/bound-choice.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { parseExperiment } from "../experiment/load-experiment.js";
import { OUTPUT_FILES, ResultWriter, TABLE_FILES, writeManifest } from "../export/result-writer.js";
import { planSweep } from "../sweep/plan-sweep.js";
import { withRecordedDefaults } from "./recorded-experiment.js";
import { recordedDataVersion, recordedParquetOnly, recordedTables, runsManifest, type Manifest, type RunsManifest } from "./manifest.js";
import { splitOf } from "../sweep/shard.js";
import { blockSource, mergeBlocks, mergeRows } from "./merge-rows.js";
import { DEFAULT_RUN_TABLES, type RunTableName } from "../vocabulary/result-files.js";
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
import { parquetCreatedBy, RUNS_PARQUET } from "./write-runs-parquet.js";
import { AtomicFileWriter } from "../files/atomic-file.js";
import { RunsParquetWriter, type RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { optionsText } from "../vocabulary/option-words.js";
import { readShardManifest, refuseOtherSplit, refuseOverlap } from "./shard-folders.js";
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
    /** The run tables the merged folder keeps (runs.parquet always); default: those the shards kept. */
    readonly tables?: readonly RunTableName[];
    /** Before 0.16: also write runs.parquet. Every merge writes it now: ignored. */
    readonly parquet?: boolean;
    /** The runs as runs.parquet only: `tables: ["parquet"]` (an alias kept from before 0.16). */
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
      const views = options.tables ?? (options.parquetOnly === true ? ["parquet" as const] : null) ?? recordedTables(first) ?? (recordedParquetOnly(first) ? ["parquet" as const] : DEFAULT_RUN_TABLES);
      const tables = { parquet: true, parquetOnly: !views.includes("csv") && !views.includes("jsonl"), tables: views };
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
  /** The run tables to write: runs.parquet, and the views listed. */
  readonly tables: { readonly parquet: boolean; readonly parquetOnly: boolean; readonly tables: readonly RunTableName[] };
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
  const jsonl = tables.tables.includes("jsonl");
  const layout = tableLayout(plan.settings.extraBounds);
  // No journal: a merge killed part way is done again from the shards (its staging folder goes).
  const sink = new TableSink(new ResultWriter(staging, { runsJsonl: jsonl, runsCsv: tables.tables.includes("csv"), layout }));
  // runs.parquet is written as the rows come.
  const parquetFile = new AtomicFileWriter(join(staging, RUNS_PARQUET));
  const parquet = new RunsParquetWriter((part) => parquetFile.append(part), undefined, layout, parquetCreatedBy());
  let runsParquet: RunsParquetDigest | null = null;
  try {
    // Records written by this version are copied as they are (their checks verified on reading); those of
    // another (--allow-mixed-versions) are written as this version writes them.
    // Shards of this version hold the block split's runs (shard.ts), each a stretch of the sweep's: read one
    // block after another, one shard at a time. Others (--allow-mixed-versions, runs kept as runs.parquet
    // only) by a k-way merge, which needs no split but holds a record and a read chunk of every shard.
    const byIndex = mergedFrom.map((dir) => manifests[shardDirs.indexOf(dir)]!);
    const source = blockSource(mergedFrom, byIndex, copyRecords);
    // A shard's runs.jsonl lines are copied as they are only where they are its record (before 0.16).
    if (source !== null) await mergeBlocks(sink, parquet, mergedFrom, byIndex, plan, { copyRecords: source === "jsonl" && jsonl, model: split, source });
    else await mergeRows(sink, parquet, shardDirs, manifests, plan, copyRecords && jsonl && manifests.every((manifest) => recordedTables(manifest) === null), mergedFrom, split);
    sink.close(true);
    runsParquet = parquet.finish();
    parquetFile.commit();
  } catch (error) {
    sink.abandon();
    parquetFile.abandon();
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

