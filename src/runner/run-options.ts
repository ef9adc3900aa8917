import type { RunTableName } from "../vocabulary/result-files.js";
import type { SummaryRow } from "../run/summary-types.js";
import type { BatchOptions } from "../sweep/make-segments.js";
import type { TestFaults } from "../pool/test-faults.js";
import type { RunRow } from "../run/run-types.js";
import type { SkippedPoints } from "../sweep/plan-sweep.js";
import type { Shard } from "../sweep/shard.js";
import type { SinkCounts } from "./table-sink.js";
import type { ViolationRecord } from "./write-violation-data.js";

/** What runExperiment takes and what it reports (run-experiment.ts): its options, all optional, and its report. */

export interface RunExperimentOptions {
  /** Worker threads; default: the machine's available parallelism. */
  readonly threads?: number;
  /** The result folder; default results/<name> under the current directory. */
  readonly outDir?: string;
  /** Continue the runs a previous invocation recorded in the folder. */
  readonly resume?: boolean;
  /** With resume: accept a changed experiment file, reusing the recorded runs that still match it. */
  readonly force?: boolean;
  /** Replace the results already in the folder. */
  readonly overwrite?: boolean;
  /** With resume: run again the runs recorded as errors. */
  readonly retryErrors?: boolean;
  /** Aborting stops handing out work; the runs in flight finish and are written; the rest can resume. */
  readonly signal?: AbortSignal;
  readonly runTimeoutSeconds?: number;
  readonly workerMemoryMb?: number;
  readonly batch?: Partial<BatchOptions>;
  /** The command line, recorded in the manifest. */
  readonly argv?: readonly string[];
  /** Called after each batch is written. */
  readonly onProgress?: (done: number, total: number) => void;
  /** Called with what the user should know but is no failure (a stale lock of the folder taken over). */
  readonly onNote?: (text: string) => void;
  /** @internal Faults planted in the workers, for the tests: left out of the published declarations (stripInternal). */
  readonly faults?: TestFaults;
  /** Run only this shard of the sweep (its folder has runs, no summaries; `merge` joins the shards). */
  readonly shard?: Shard;
  /**
   * The run tables the folder keeps (docs/outputs.md, "The record and its views"): runs.parquet always, written from the sweep's journal
   * once it is complete; runs.csv and runs.jsonl, views formatted as the runs come, where listed. Default:
   * the experiment's `tables`, else every one; a resume keeps what the folder's sweep recorded.
   */
  readonly tables?: readonly RunTableName[];
  /** Before 0.16: also write runs.parquet. Every sweep writes it now: ignored. */
  readonly parquet?: boolean;
  /** The runs as runs.parquet only: `tables: ["parquet"]` (an alias kept from before 0.16). */
  readonly parquetOnly?: boolean;
}

export interface RunCounts extends SinkCounts {
  /** Runs of this invocation: the sweep's, or its shard's. */
  readonly runs: number;
  readonly points: number;
  /** Of the recorded runs, those taken from a previous invocation. */
  readonly reused: number;
}

export type RunOutcome = "complete" | "interrupted" | "already-complete";

export interface RunReport {
  readonly outcome: RunOutcome;
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
