/**
 * The pool-efficiency baseline of `npm run bench` (see bench.ts, "sweep"): in a fresh thread, like the
 * pool's own, one plain loop over the sweep's runs doing a worker's share (expand the specs, execute each
 * run, format its table lines and digest, 1 000 runs at a time), timed once from cold: runs/s. Started
 * through Piscina, whose workers load TypeScript through tsx as the run pool's do.
 */
import { batchOutput } from "../src/pool/batch-output.js";
import { executeRun } from "../src/run/execute-run.js";
import { batchLength, batchSpecs, type RunBatch } from "../src/sweep/run-batch.js";

export default function inThread(batches: readonly RunBatch[]): number {
  const runs = batches.reduce((sum, batch) => sum + batchLength(batch), 0);
  const start = process.hrtime.bigint();
  for (const batch of batches) batchOutput(batchSpecs(batch).map(executeRun));
  return runs / (Number(process.hrtime.bigint() - start) / 1e9);
}
