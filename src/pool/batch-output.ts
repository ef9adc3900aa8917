import { digestBinary, type PointHead, type RunDigest } from "../aggregate/run-digest.js";
import { encodeRows, type BinaryRows } from "../export/binary-rows.js";
import { journalBlock } from "../export/journal-blocks.js";
import { binaryLineViews, BOTH_RUN_TABLES, type RunLineBytes, type RunTables } from "../export/run-lines.js";
import type { RunRow } from "../run/run-types.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

/**
 * What the coordinator receives of a batch of runs: their lines of both run tables, formatted, and their
 * digest (counts, summary numbers, the rows a report names). An exporter thread (or a worker that formats
 * its own rows) sends this rather than the rows: a row object per run costs more to post between threads
 * than to compute the digest.
 */
export interface BatchOutput {
  readonly lines: RunLineBytes;
  /** The rows as the journal's block (journal-blocks.ts); empty where the folder keeps no journal. */
  readonly journal: Uint8Array;
  /** The rows as numbers (binary-rows.ts), in order, for runs.parquet (parquet-thread.ts): views of a ring until released. */
  readonly rows: readonly BinaryRows[];
  readonly digest: RunDigest;
  /**
   * Where the lines and the digest's values are views of a thread's ring (see openOutput in output-ring.ts): frees
   * them for the thread's next batches. Call it once they are written and taken; they are not to be read after.
   */
  readonly release?: () => void;
}

/**
 * The output of rows in sweep order: a worker's batch, a batch retried run by run, rows reused or merged.
 * `tables`: the run tables the folder writes (the lines of the others are empty, not formatted); `journal`:
 * whether the folder keeps a journal (a merge writes none); `records`: the rows' runs.jsonl lines as read
 * from a file of this version, whose checks were verified (merge copies them rather than format them
 * again); `layout`: the sweep's columns (its plug-in bounds', table-layout.ts).
 */
export function batchOutput(
  rows: readonly RunRow[],
  { tables = BOTH_RUN_TABLES, journal = true, records, layout = BUILT_IN }: { readonly tables?: RunTables; readonly journal?: boolean | undefined; readonly records?: string | undefined; readonly layout?: TableLayout } = {},
): BatchOutput {
  // Owned: an output may wait in the sweep's window while other rows are encoded.
  const binary = encodeRows(rows, { layout, owned: true });
  const { jsonl, csv } = binaryLineViews(binary, { jsonl: tables.jsonl && records === undefined, csv: tables.csv }, layout);
  return {
    lines: { jsonl: tables.jsonl && records !== undefined ? UTF8.encode(records) : jsonl.slice(), csv: csv.slice() },
    journal: journal ? journalBlock(binary, layout.width) : NO_BYTES,
    rows: [binary],
    digest: digestBinary(binary, layout),
  };
}

const NO_BYTES = new Uint8Array(0);

/** Recorded lines as plain Uint8Arrays, like the formatted ones. */
const UTF8 = new TextEncoder();

function concatBytes(parts: readonly Uint8Array[]): Uint8Array {
  const joined = new Uint8Array(parts.reduce((sum, part) => sum + part.byteLength, 0));
  let at = 0;
  for (const part of parts) {
    joined.set(part, at);
    at += part.byteLength;
  }
  return joined;
}

/** The outputs of consecutive batches as one: the same as batchOutput of all their rows. */
export function joinOutputs(outputs: readonly BatchOutput[]): BatchOutput {
  const values = new Float64Array(outputs.reduce((sum, output) => sum + output.digest.values.length, 0));
  const lines = { jsonl: concatBytes(outputs.map((output) => output.lines.jsonl)), csv: concatBytes(outputs.map((output) => output.lines.csv)) };
  // Blocks one after another are the journal of their rows in that order.
  const journal = concatBytes(outputs.map((output) => output.journal));
  // Copied, as the lines: the parts' rings may take their slots back.
  const rows = outputs.flatMap((output) => output.rows.map((part) => ({ ...part, values: part.values.slice() })));
  const heads: PointHead[] = [];
  let at = 0;
  for (const { digest } of outputs) {
    values.set(digest.values, at);
    at += digest.values.length;
    for (const head of digest.heads) if (heads.length === 0 || heads[heads.length - 1]!.point !== head.point) heads.push(head);
  }
  // Copied: the parts' rings may take their slots back.
  for (const output of outputs) output.release?.();
  return {
    lines,
    journal,
    rows,
    digest: {
      count: outputs.reduce((sum, output) => sum + output.digest.count, 0),
      values,
      heads,
      notable: outputs.flatMap((output) => output.digest.notable),
    },
  };
}
