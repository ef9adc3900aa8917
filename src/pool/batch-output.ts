import { digestRows, type PointHead, type RunDigest } from "../aggregate/run-digest.js";
import { runLines, type RunLines } from "../export/run-lines.js";
import type { RunRow } from "../run/run-types.js";

/**
 * What the coordinator receives of a batch of runs: their lines of both run tables, formatted, and their
 * digest (counts, summary numbers, the rows a report names). A worker sends this rather than the rows:
 * a row object per run costs more to post between threads than to compute the digest.
 */
export interface BatchOutput {
  readonly lines: RunLines;
  readonly digest: RunDigest;
}

/** The output of rows in sweep order: a worker's batch, a batch retried run by run, rows reused or merged. */
export function batchOutput(rows: readonly RunRow[]): BatchOutput {
  return { lines: runLines(rows), digest: digestRows(rows) };
}

/** The outputs of consecutive batches as one: the same as batchOutput of all their rows. */
export function joinOutputs(outputs: readonly BatchOutput[]): BatchOutput {
  const values = new Float64Array(outputs.reduce((sum, output) => sum + output.digest.values.length, 0));
  const heads: PointHead[] = [];
  let at = 0;
  for (const { digest } of outputs) {
    values.set(digest.values, at);
    at += digest.values.length;
    for (const head of digest.heads) if (heads.length === 0 || heads[heads.length - 1]!.point !== head.point) heads.push(head);
  }
  return {
    lines: { jsonl: outputs.map((output) => output.lines.jsonl).join(""), csv: outputs.map((output) => output.lines.csv).join("") },
    digest: {
      count: outputs.reduce((sum, output) => sum + output.digest.count, 0),
      values,
      heads,
      notable: outputs.flatMap((output) => output.digest.notable),
    },
  };
}
