import { join } from "node:path";
import { InputError } from "../experiment/input-error.js";
import { parseExperiment } from "../experiment/load-experiment.js";
import { OUTPUT_FILES, ResultWriter } from "../export/result-writer.js";
import type { RunRow } from "../run/run-types.js";
import { planSweep } from "../sweep/plan-sweep.js";
import type { Shard } from "../sweep/shard.js";
import { readManifest, requireComplete, type Manifest } from "./manifest.js";
import { RecordStream } from "./recorded-runs.js";
import { clearResults, inspectResultFolder } from "./result-folder.js";
import type { RunCounts, RunReport } from "./run-experiment.js";
import { TableSink } from "./table-sink.js";
import { toolInfo } from "./tool-info.js";
import { writeViolationData } from "./write-violation-data.js";

/**
 * Joins the folders of every shard of one sweep into `outDir`: the four tables come out byte-identical
 * to an unsharded run's (the rows are the same, merged back into sweep order, and the summaries are
 * computed from them). Refuses, naming them, shards of different experiments, missing, repeated or
 * unfinished shards, and a run found in no shard or in two.
 */
export function mergeShards(outDir: string, shardDirs: readonly string[], options: { readonly overwrite?: boolean } = {}): RunReport {
  const startedAt = new Date();
  if (shardDirs.length === 0) throw new InputError("merge needs the shard folders to join");
  const manifests = shardDirs.map((dir) => readShardManifest(dir));
  const first = manifests[0]!;
  const count = first.shard.count;
  const byIndex = new Map<number, string>();
  manifests.forEach((manifest, k) => {
    const dir = shardDirs[k]!;
    if (manifest.experiment.hash !== first.experiment.hash) {
      throw new InputError(`${dir} is a shard of a different experiment file than ${shardDirs[0]} (sha256 ${manifest.experiment.hash.slice(0, 12)}… against ${first.experiment.hash.slice(0, 12)}…)`);
    }
    const { index, count: n } = manifest.shard;
    if (n !== count) throw new InputError(`${dir} is shard ${index}/${n}, but ${shardDirs[0]} is one of ${count}`);
    const twin = byIndex.get(index);
    if (twin !== undefined) throw new InputError(`${twin} and ${dir} are both shard ${index}/${count}`);
    byIndex.set(index, dir);
  });
  const missing = Array.from({ length: count }, (_, k) => k + 1).filter((index) => !byIndex.has(index));
  if (missing.length > 0) throw new InputError(`shard${missing.length > 1 ? "s" : ""} ${missing.map((index) => `${index}/${count}`).join(", ")} missing`);

  const state = inspectResultFolder(outDir);
  if (state.hasResults) {
    if (!options.overwrite) throw new InputError(`${outDir} already holds results: --overwrite replaces them`);
    clearResults(outDir);
  }
  const experiment = parseExperiment(first.experiment.source, first.experiment.name, `${join(shardDirs[0]!, OUTPUT_FILES.manifest)} (experiment)`);
  const plan = planSweep(experiment);
  const sink = new TableSink(new ResultWriter(outDir));
  const streams = shardDirs.map((dir) => new RecordStream(join(dir, OUTPUT_FILES.runsJsonl)));
  for (let run = 0; ; run++) {
    let next: { row: RunRow; stream: RecordStream; dir: string } | null = null;
    streams.forEach((stream, k) => {
      const row = stream.peek();
      if (row !== null && (next === null || row.run < next.row.run)) next = { row, stream, dir: shardDirs[k]! };
    });
    if (next === null) {
      if (run < plan.runCount) throw new InputError(`run ${run} of ${plan.runCount} is in no shard: a shard folder is incomplete`);
      break;
    }
    const { row, stream, dir } = next as { row: RunRow; stream: RecordStream; dir: string };
    if (row.run !== run) {
      throw new InputError(row.run < run ? `run ${row.run} is in two shards (again in ${dir})` : `run ${run} of ${plan.runCount} is in no shard: a shard folder is incomplete`);
    }
    stream.take();
    sink.writeRows([row]);
  }
  sink.close(true);
  const endedAt = new Date();
  const counts: RunCounts = { runs: plan.runCount, points: plan.pointCount, reused: 0, ...sink.counts };
  const violationData = writeViolationData(outDir, experiment, sink.firstViolations);
  sink.writer.writeManifest({
    status: "complete",
    tool: toolInfo(),
    experiment: first.experiment,
    resolved: experiment,
    shard: null,
    mergedFrom: Array.from({ length: count }, (_, k) => byIndex.get(k + 1)),
    skipped: first.skipped,
    counts,
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

function readShardManifest(dir: string): Manifest & { readonly shard: Shard } {
  const manifest = readManifest(dir, "merge joins folders written by run --shard");
  if (manifest.shard === null) throw new InputError(`${dir} holds a whole sweep, not a shard`);
  requireComplete(dir, manifest);
  return manifest as Manifest & { readonly shard: Shard };
}
