/**
 * The parquet thread of a sweep (parquet-thread.ts starts it): it turns the sweep's rows as numbers, in run
 * order, into runs.parquet's bytes (runs-parquet-writer.ts), so that the coordinator only writes them. Rows
 * become Parquet at ~30 µs a small run in hyparquet-writer, more than the run itself: on the coordinator that
 * was most of a sweep of small runs' time; here it runs beside the workers. One sweep a thread: the writer is
 * this module's, made by the first task and ended by the last.
 */
import type { BinaryRows } from "../export/binary-rows.js";
import { RunsParquetWriter, type RunsParquetDigest } from "../export/runs-parquet-writer.js";
import { tableLayout } from "../run/table-layout.js";

/** The file's shape (the first task's), and then rows, in run order; `finish` ends the file. `seq`: the task's place in that order. */
export type ParquetTask = { readonly seq: number } & (
  | { readonly start: { readonly rowGroup: number; readonly extraBounds?: readonly string[]; readonly createdBy: string } }
  | { readonly rows: Pick<BinaryRows, "count" | "values" | "texts"> }
  | { readonly finish: true }
);

/**
 * The bytes of the file made since the last answer, in order, and once the file is finished what it holds.
 * Piscina may hand a thread its queued tasks out of the order they were given (seen here on a thread that was
 * still starting): a task that comes early waits for those before it, and the bytes its turn makes go with the
 * answer of the task that let them be made. The coordinator writes answers in the order it gave the tasks, so
 * the bytes reach the file in order (parquet-thread.ts).
 */
export interface ParquetAnswer {
  readonly parts: readonly Uint8Array[];
  readonly digest?: RunsParquetDigest;
}

let writer: RunsParquetWriter | null = null;
let parts: Uint8Array[] = [];
let digest: RunsParquetDigest | undefined;
let next = 0;
const early = new Map<number, ParquetTask>();

export default function encodeParquet(task: ParquetTask): ParquetAnswer {
  early.set(task.seq, task);
  for (let turn = early.get(next); turn !== undefined; turn = early.get(next)) {
    early.delete(next++);
    take(turn);
  }
  const answer = { parts, ...(digest === undefined ? {} : { digest }) };
  parts = [];
  digest = undefined;
  return answer;
}

function take(task: ParquetTask): void {
  if ("start" in task) {
    const { rowGroup, extraBounds, createdBy } = task.start;
    writer = new RunsParquetWriter((part) => parts.push(part.slice()), rowGroup, tableLayout(extraBounds), createdBy);
    return;
  }
  if (writer === null) throw new Error("the parquet thread was given rows before its start (a bug)");
  if ("rows" in task) writer.addBinary(task.rows);
  else {
    digest = writer.finish();
    writer = null;
    next = 0;
  }
}
