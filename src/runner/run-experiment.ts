import { availableParallelism } from "node:os";
import { join } from "node:path";
import { PointSummariser } from "../aggregate/point-summariser.js";
import type { SummaryRow } from "../aggregate/summary-types.js";
import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { ResultWriter } from "../export/result-writer.js";
import { TABLE_ROWS } from "../export/summary-table.js";
import { DEFAULT_BATCH_OPTIONS, makeBatches, type BatchOptions } from "../pool/make-batches.js";
import { RunPool } from "../pool/run-pool.js";
import { errorRow } from "../run/execute-run.js";
import type { RunRow, RunSpec } from "../run/run-types.js";
import { planSweep, type SkippedPoints } from "../sweep/plan-sweep.js";
import { toolInfo } from "./tool-info.js";
import { writeViolationData, type ViolationRecord } from "./write-violation-data.js";

export interface RunExperimentOptions {
  /** Worker threads; default: the machine's available parallelism. */
  readonly threads?: number;
  /** The result folder; default results/<name> under the current directory. */
  readonly outDir?: string;
  readonly batch?: Partial<BatchOptions>;
  /** The command line, recorded in the manifest. */
  readonly argv?: readonly string[];
  /** Called after each batch is written. */
  readonly onProgress?: (done: number, total: number) => void;
}

export interface RunCounts {
  readonly runs: number;
  readonly points: number;
  readonly ok: number;
  readonly converged: number;
  readonly notConverged: number;
  readonly errors: number;
  /** Runs with at least one violated bound. */
  readonly violatingRuns: number;
}

export interface RunReport {
  readonly outDir: string;
  readonly threads: number;
  readonly counts: RunCounts;
  readonly skipped: readonly SkippedPoints[];
  /** The first grid points' summaries (for the printed table). */
  readonly firstSummaries: readonly SummaryRow[];
  /** The first runs that violated a bound, and the first that failed, for the message. */
  readonly firstViolations: readonly RunRow[];
  readonly firstErrors: readonly RunRow[];
  /** Where the violating runs' data sets were written, and how to replay them. */
  readonly violationData: readonly ViolationRecord[];
  readonly wallSeconds: number;
}

/** How many failed runs the report keeps, and how many violating runs' data sets are written. */
const KEEP = 5;
const KEEP_VIOLATIONS = 20;

/**
 * Runs an experiment's sweep through the worker pool and writes its result folder. Batches are handed
 * out in sweep order with a bounded number in flight, and their rows are written in that same order,
 * so the tables are identical whatever the number of threads, and memory stays flat.
 */
export async function runExperiment(loaded: LoadedExperiment, options: RunExperimentOptions = {}): Promise<RunReport> {
  const { experiment } = loaded;
  const startedAt = new Date();
  const threads = options.threads ?? availableParallelism();
  const outDir = options.outDir ?? join("results", experiment.name);
  const plan = planSweep(experiment);
  const batchOptions: BatchOptions = {
    targetCost: options.batch?.targetCost ?? DEFAULT_BATCH_OPTIONS.targetCost,
    // Enough batches that every thread gets several, even when each run is cheap.
    maxRuns: options.batch?.maxRuns ?? Math.max(1, Math.min(DEFAULT_BATCH_OPTIONS.maxRuns, Math.ceil(plan.runCount / (threads * 4)))),
  };

  const writer = new ResultWriter(outDir);
  const summariser = new PointSummariser();
  const firstSummaries: SummaryRow[] = [];
  const firstViolations: RunRow[] = [];
  const firstErrors: RunRow[] = [];
  let ok = 0;
  let converged = 0;
  let errors = 0;
  let violatingRuns = 0;
  let done = 0;

  const keepSummary = (summary: SummaryRow | null) => {
    if (summary === null) return;
    writer.writeSummary(summary);
    if (firstSummaries.length < TABLE_ROWS) firstSummaries.push(summary);
  };
  const consume = (rows: readonly RunRow[]) => {
    for (const row of rows) {
      writer.writeRun(row);
      if (row.status === "ok") {
        ok++;
        if (row.converged) converged++;
      } else {
        errors++;
        if (firstErrors.length < KEEP) firstErrors.push(row);
      }
      if ((row.violations ?? 0) > 0) {
        violatingRuns++;
        if (firstViolations.length < KEEP_VIOLATIONS) firstViolations.push(row);
      }
      keepSummary(summariser.add(row));
    }
    done += rows.length;
    options.onProgress?.(done, plan.runCount);
  };

  const pool = new RunPool({ threads });
  try {
    // A window of batches in flight, consumed oldest first: workers stay busy while rows are written in order.
    const window: Promise<RunRow[]>[] = [];
    const limit = threads * 3;
    const dispatch = (batch: RunSpec[]) =>
      pool.run(batch).catch((error: unknown) => batch.map((spec) => errorRow(spec, `worker failed: ${messageOf(error)}`)));
    for (const batch of makeBatches(plan.runs(), batchOptions)) {
      window.push(dispatch(batch));
      if (window.length >= limit) consume(await window.shift()!);
    }
    while (window.length > 0) consume(await window.shift()!);
  } finally {
    await pool.close();
    keepSummary(summariser.finish());
    writer.close();
  }

  const endedAt = new Date();
  const counts: RunCounts = {
    runs: plan.runCount,
    points: plan.pointCount,
    ok,
    converged,
    notConverged: ok - converged,
    errors,
    violatingRuns,
  };
  const wallSeconds = (endedAt.getTime() - startedAt.getTime()) / 1000;
  const violationData = writeViolationData(outDir, experiment, firstViolations);
  writer.writeManifest({
    tool: toolInfo(),
    experiment: { path: loaded.path, hash: loaded.hash, name: experiment.name, source: loaded.source },
    resolved: experiment,
    options: { threads, outDir, batch: batchOptions, argv: options.argv ?? null },
    counts,
    skipped: plan.skipped,
    violations: violationData,
    startedAt: startedAt.toISOString(),
    endedAt: endedAt.toISOString(),
    wallSeconds,
  });
  return { outDir, threads, counts, skipped: plan.skipped, firstSummaries, firstViolations, firstErrors, violationData, wallSeconds };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}
