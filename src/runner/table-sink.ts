import type { BinaryRows } from "../export/binary-rows.js";
import { PointSummariser } from "../aggregate/point-summariser.js";
import { SpillFolder } from "../aggregate/spill-folder.js";
import type { SummaryRow } from "../run/summary-types.js";
import { ResultWriter } from "../export/result-writer.js";
import { DIGEST_FLAGS, DIGEST_VIOLATIONS, digestWidth, FLAG_CONVERGED, FLAG_OK } from "../aggregate/run-digest.js";
import { batchOutput, type BatchOutput } from "../pool/batch-output.js";
import { TABLE_ROWS } from "../export/summary-table.js";
import type { RunRow } from "../run/run-types.js";
import { SPILL_PREFIX } from "./result-folder.js";

/** How many failed runs are kept for the message, and how many violating runs' data sets are written. */
const KEEP_ERRORS = 5;
const KEEP_VIOLATIONS = 20;
/**
 * A sync of the tables starts at least this often (and the end waits for one): a crash of the machine loses
 * at most the rows since the last that finished; a killed process, only the rows still in its buffers.
 */
export const SYNC_EVERY_MS = 1000;

export interface SinkCounts {
  /** Rows written. */
  readonly recorded: number;
  readonly ok: number;
  readonly converged: number;
  readonly notConverged: number;
  readonly errors: number;
  /** Runs with at least one violated bound or a missed exact count. */
  readonly violatingRuns: number;
}

/**
 * Where rows go, in sweep order: the result folder's tables (through the one writer), streaming
 * per-point summaries, and the counts and first failures a report needs.
 */
export class TableSink {
  readonly #writer: ResultWriter;
  readonly #summariser: PointSummariser | null;
  readonly firstSummaries: SummaryRow[] = [];
  readonly firstViolations: RunRow[] = [];
  readonly firstErrors: RunRow[] = [];
  #ok = 0;
  #converged = 0;
  #errors = 0;
  #violating = 0;
  #recorded = 0;
  #lastSync = Date.now();
  /** The numbers of a run's digest in this folder's layout (its plug-in bounds'). */
  readonly #width: number;

  /**
   * `summaries: false` for a shard, whose grid points may be split with other shards. Summaries spill
   * into a private folder of the result folder (see SpillFolder). `parquet`: where the rows as numbers go to
   * become runs.parquet (a sweep's parquet thread), in order.
   */
  constructor(readonly writer: ResultWriter, summaries = true, readonly parquet: { add(rows: BinaryRows): void } | null = null) {
    this.#writer = writer;
    this.#summariser = summaries ? new PointSummariser(new SpillFolder(writer.outDir, SPILL_PREFIX), writer.layout) : null;
    this.#width = digestWidth(writer.layout);
  }

  /** A batch's output, in sweep order; released (see BatchOutput) once its lines and digest are taken. */
  write(output: BatchOutput): void {
    const { lines, digest } = output;
    this.#writer.writeRuns(lines, output.journal);
    if (this.parquet !== null) for (const rows of output.rows) this.parquet.add(rows);
    const { values } = digest;
    for (let k = 0, at = 0; k < digest.count; k++, at += this.#width) {
      const flags = values[at + DIGEST_FLAGS]!;
      if ((flags & FLAG_OK) !== 0) {
        this.#ok++;
        if ((flags & FLAG_CONVERGED) !== 0) this.#converged++;
      } else {
        this.#errors++;
      }
      if (values[at + DIGEST_VIOLATIONS]! > 0) this.#violating++;
    }
    for (const row of digest.notable) {
      if (row.status !== "ok" && this.firstErrors.length < KEEP_ERRORS) this.firstErrors.push(row);
      if ((row.violations ?? 0) > 0 && this.firstViolations.length < KEEP_VIOLATIONS) this.firstViolations.push(row);
    }
    const summaries = this.#summariser?.add(digest) ?? [];
    output.release?.();
    for (const summary of summaries) this.#summary(summary);
    this.#recorded += digest.count;
    this.syncIfDue();
  }

  /** Starts a sync of the tables if the last began SYNC_EVERY_MS ago (also while the sweep waits on a long batch). */
  syncIfDue(): void {
    if (Date.now() - this.#lastSync < SYNC_EVERY_MS) return;
    this.#writer.syncInBackground();
    this.#lastSync = Date.now();
  }

  /** Rows in sweep order (reused by a resume, or merged from shards); `records`: their runs.jsonl lines, as batchOutput takes them. */
  writeRows(rows: readonly RunRow[], records?: string): void {
    this.write(batchOutput(rows, { tables: this.#writer.runTables, journal: this.#writer.keepsJournal, records, layout: this.#writer.layout }));
  }

  /** Closes the tables; `complete: false` (interrupted) leaves out the summary of the unfinished point. */
  close(complete: boolean): void {
    if (complete) this.#summary(this.#summariser?.finish() ?? null);
    this.#summariser?.spill.dispose();
    this.#writer.close();
  }

  /** After a failure: closes the tables without writing more, and removes the spilled values. */
  abandon(): void {
    this.#summariser?.spill.dispose();
    this.#writer.abandon();
  }

  /** What a report keeps of the rows: the first summaries (for the printed table), violations and errors. */
  get kept(): { firstSummaries: SummaryRow[]; firstViolations: RunRow[]; firstErrors: RunRow[] } {
    return { firstSummaries: this.firstSummaries, firstViolations: this.firstViolations, firstErrors: this.firstErrors };
  }

  get counts(): SinkCounts {
    return {
      recorded: this.#recorded,
      ok: this.#ok,
      converged: this.#converged,
      notConverged: this.#ok - this.#converged,
      errors: this.#errors,
      violatingRuns: this.#violating,
    };
  }

  #summary(summary: SummaryRow | null): void {
    if (summary === null) return;
    this.#writer.writeSummary(summary);
    if (this.firstSummaries.length < TABLE_ROWS) this.firstSummaries.push(summary);
  }
}
