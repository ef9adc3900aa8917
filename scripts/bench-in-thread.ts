/**
 * The pool-efficiency baseline of `npm run bench` (see bench.ts, "sweep"): one plain loop over the sweep's
 * batches of 1 000 runs, each through the pool worker's own function (expand the specs, execute each run,
 * its rows as numbers), with the compiled modules the pool's workers run, but no pool nor its exporters.
 * bench.ts runs it in a fresh thread through Piscina (cold, like the pool's threads) and on its own warm
 * main thread.
 */
import type { RunBatch } from "../src/sweep/run-batch.js";
import { compiled } from "./compiled.js";

/** Runs per second of one pass over the batches (the modules' loading not timed). */
export default async function runBatches(batches: readonly RunBatch[]): Promise<number> {
  // Loaded here: with top-level awaits instead, a Piscina thread failed to load this file through tsx (Node 20).
  const { default: runBatch } = await compiled<typeof import("../src/pool/worker.js")>("pool/worker.js");
  const { batchLength } = await compiled<typeof import("../src/sweep/run-batch.js")>("sweep/run-batch.js");
  const runs = batches.reduce((sum, batch) => sum + batchLength(batch), 0);
  const start = process.hrtime.bigint();
  for (const batch of batches) runBatch(batch);
  return runs / (Number(process.hrtime.bigint() - start) / 1e9);
}
