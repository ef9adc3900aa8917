// node scripts/worker-loop.mjs [runs] [small|heavy] [dist folder]: the pool worker's own function
// (dist/pool/worker.js) over a sweep's batches in this thread, no pool, no files: the first half warms up,
// the second is timed. Prints runs a second and µs a run. The figures "the pool worker's function in a
// loop" in the README come from it; to compare two builds, copy one's dist/ aside (the copy needs
// dist/wasm beside it, two folders up from its perceptron/) and alternate the two in separate processes.
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";

const runs = Number(process.argv[2] ?? 40_000);
const kind = process.argv[3] ?? "small";
const dist = pathToFileURL(resolve(process.argv[4] ?? new URL("../dist", import.meta.url).pathname)).href;
const grids = { small: { n: 100, d: 10, margin: 0.1 }, heavy: { n: 1000, d: 50, margin: 0.05 } };
if (!Number.isSafeInteger(runs) || runs < 2 || !(kind in grids)) {
  console.error("usage: node scripts/worker-loop.mjs [runs ≥ 2] [small|heavy] [dist folder]");
  process.exit(2);
}
const { parseExperiment } = await import(`${dist}/experiment/load-experiment.js`);
const { planSweep } = await import(`${dist}/sweep/plan-sweep.js`);
const { default: runBatch } = await import(`${dist}/pool/worker.js`);
const plan = planSweep(parseExperiment({ name: "loop", repeats: runs, optimal: false, grid: grids[kind] }, "loop"));
// The pool's batch sizes for these runs: 1 000 small runs or 40 heavy ones a batch.
const size = kind === "small" ? 1000 : 40;
const batches = [];
for (const point of plan.points()) {
  for (let from = 0; from < plan.repeats; from += size) batches.push({ settings: plan.settings, ranges: [{ point, from, to: Math.min(plan.repeats, from + size) }] });
}
const half = batches.length >> 1;
const timed = batches.slice(half).reduce((sum, batch) => sum + batch.ranges[0].to - batch.ranges[0].from, 0);
for (const batch of batches.slice(0, half)) runBatch(batch);
const start = process.hrtime.bigint();
for (const batch of batches.slice(half)) runBatch(batch);
const seconds = Number(process.hrtime.bigint() - start) / 1e9;
console.log(`${kind}: ${(timed / seconds).toFixed(0)} runs/s, ${((seconds * 1e6) / timed).toFixed(2)} µs a run (${timed} runs timed after ${runs - timed})`);
