import { cpus } from "node:os";
import { wasmKernelProblem } from "../src/perceptron/perceptron-wasm.js";
import { digestBinary } from "../src/aggregate/run-digest.js";
import { encodeRows } from "../src/export/binary-rows.js";
import { binaryLineViews } from "../src/export/run-lines.js";
import { executeRun } from "../src/run/execute-run.js";
import { compiled } from "./compiled.js";
import { median } from "./bench/timing.js";
import { peer } from "./bench/peer-section.js";
import { sweep, scaling, scalingLarge, grid, memory } from "./bench/sweep-sections.js";
import { kernel, generation, STAGES, stages, maxMargin } from "./bench/in-process-sections.js";
import { worstOrderSection } from "./bench/worst-order-section.js";
import { HEAVY_GRID } from "./bench/grids.js";
/**
 * npm run bench [-- --json] [-- --full] [-- --c-reference] [-- --only kernel,generation,stages,maxMargin,sweep,grid,scaling,scalingLarge,peer,memory,worstOrder]: the figures of the speed work, measured here and never asserted
 * in a test (the machine is shared and noisy). Prints a table; with --json, one JSON object as the last
 * line of output. Medians of several repetitions after half a second of warm-up.
 *
 * kernel      multiply-adds per second of the perceptron on one thread, counting n·d per epoch, on fixed
 *             non-separable data (random labels, so every epoch runs, half its points mistakes) of
 *             n = 20 000, d = 500 (large) and n = 2 000, d = 100 (small): the WebAssembly kernel that
 *             runs use (maddsPerSecond, copying the data into its memory included) and the TypeScript
 *             reference (typescriptMaddsPerSecond). With --c-reference, also the same loop in C
 *             (scripts/reference-kernel.c) compiled with gcc -O3 and with -O3 -march=native -ffast-math,
 *             on the same data (cReference).
 * generation  random values per second of the planted generator (n·d per data set), and standard normals
 *             per second filling an array of 2^20, for each data version (docs/theory.md, "Data versions").
 * stages      where a small run's time goes (n = 100, d = 10, margin 0.1, from ŵ(0) = 0, no max-margin):
 *             microseconds a run in each step of executeRun, each timed around its own call on one warm
 *             thread, 20 000 runs after as many of warm-up: the data (its stream and the planted generator),
 *             the learner's copy (both written into the module's memory, as executeRun writes them), the
 *             perceptron, the planted separator's bounds (with its dots, which the next step shares, as in a
 *             run), its Freund–Schapire bound, then the whole
 *             executeRun of the same run (its steps again, the row, and what the steps above leave out:
 *             `rest`), its row as numbers (encodeRows: the last of a worker's steps), and its lines and
 *             digest from those numbers (binaryLineViews and digestBinary: an exporter thread's part), a
 *             batch of 1 000 at a time.
 *             The lowest mean of three passes, step by step. A guide to where to look, not a budget: each
 *             step timed alone runs with warmer caches than inside a run. The same for a heavy run (n 1 000,
 *             d 50, margin 0.05: stagesHeavy), 1 000 runs after as many, lines a batch of 40 at a time.
 * maxMargin   the max-margin QP per run against n and d, seeded with the perceptron's weights as in a
 *             run, beside the perceptron on the same data: medians over 201, 21 and 3 data sets, so that
 *             the small case is timed with the solver compiled, as in a sweep of thousands of runs.
 * sweep       runs per second of 20 000 small runs (n = 100, d = 10, margin 0.1, no max-margin) at 1 and 2
 *             threads, the speedup, and the pool's efficiency: the 1-thread sweep against a plain loop over
 *             the same runs doing a worker's share (expand the specs, execute each run, its row as
 *             numbers; the exporters' lines and digest are not in it), without the pool, the writing or
 *             the summaries. Each sweep is the shipped
 *             command in a process of its own (`node dist/cli/perceptron-lab.mjs run … --no-report`, as
 *             `npx perceptron-lab run` runs it), timed by the wall time its manifest records (from the
 *             start of the sweep to its last table, so without Node's and the modules' start-up). The loop
 *             runs the same compiled modules once in a fresh thread (inProcess), since the pool's threads
 *             start fresh too and both pay the JIT's warm-up (about 0.2 s here); the same loop on the
 *             bench's warm main thread is reported beside it (inProcessWarm), not used. Five rounds of
 *             the three, interleaved; each figure is a median over the rounds, each ratio the median of
 *             the rounds' ratios. A sweep whose threads leave cores free has exporter threads beside them
 *             (exporterThreads in src/pool/run-pool.ts): on 2 cores, 1 thread runs with one, 2 without.
 * grid        points per second of a sweep of many grid points of few runs (2 000 points of 2 runs of n 20,
 *             d 2: margins, offsets and η by ten, both orders; no max-margin) at 2 threads, the shipped
 *             command as above, median of three: the coordinator's cost per grid point (its summary
 *             row and lines), which the one-point sweep above does not show.
 * scaling     runs per second of 20 000 small runs at 1, 2, 4, … threads up to the machine's available
 *             parallelism, the shipped command as above, median of three each, and the speedup over 1;
 *             beside it the CPU time a run of the whole process (every thread, start-up included: Linux's
 *             /proc/self/stat, children's times) and of its main thread (the manifest's coordinator
 *             cpuSeconds). Where the process's CPU a run stays flat as threads are added, a speedup below the
 *             thread count is the share of that CPU outside the workers (start-up, V8's compiler and
 *             garbage-collector threads, the coordinator) competing for the same cores.
 * scalingLarge (--full, or named in --only) the issue's scaling sweeps: 400 000 small runs and 32 000 heavy runs
 *             (n 1 000, d 50, margin 0.05; no max-margin) at 1, 2, 4, … threads up to the machine's cores, the
 *             shipped command as above, once each (minutes at 1 thread); runs per second, the speedup over 1,
 *             the CPU a run (process / main thread) and the peak RSS its manifest records, and the RSS a thread
 *             over the 1-thread sweep's.
 * peer        the numpy + numba peer (../shared/peer, or PEER_DIR; PEER_PYTHON names a Python with numpy
 *             and numba) on its small (100 000 runs of n 100, d 10, margin 0.1) and heavy (4 000 runs of
 *             n 1 000, d 50, margin 0.05) sweeps against the tool on the same, at 1 worker and at every
 *             core: per-run throughput of the sweep phases and end to end (process wall time), and the
 *             tool/peer ratios. The tool runs with the default bounds (the peer's outputs and more:
 *             Novikoff, Snapp, Hu, N(v) and best of the planted separator) and again with `bounds: "all"`
 *             (ratioAll, beside), and with --tables parquet (ratioParquet: runs.parquet alone, no text). Skipped, saying why, where the peer or its Python is missing.
 * memory      (--full only) peak RSS of a sweep of 1 000 000 small runs at 2 threads: the shipped command
 *             in a process of its own, as above; the peak its manifest records (peakRssMb: the coordinator
 *             and its worker threads, which share the process).
 * worstOrder  (--full, or named in --only; minutes) the exact worst order's reach: at margins 0.05, 0.1, 0.2 and
 *             d 5, 10, the largest planted n at which W* is exact in ≥ 90 % of 10 runs (scripts/bench/worst-order-section.ts).
 *
 * kernel, generation, stages and maxMargin run the TypeScript sources (under tsx); sweep and memory the compiled
 * output (dist/, which `npm install` builds; `npm run build` after a change).
 */

const json = process.argv.includes("--json");
const full = process.argv.includes("--full");
const cReference = process.argv.includes("--c-reference");
/** --only kernel,generation,stages,maxMargin,sweep,grid,scaling,peer,memory: a subset of the sections (all by default). */
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt < 0 ? null : (process.argv[onlyAt + 1] ?? "").split(",");
const SECTIONS = ["kernel", "generation", "stages", "maxMargin", "sweep", "grid", "scaling", "scalingLarge", "peer", "memory", "worstOrder"];
const unknown = only?.filter((section) => !SECTIONS.includes(section)) ?? [];
if (unknown.length > 0) {
  console.error(`bench: --only ${unknown.map((section) => JSON.stringify(section)).join(", ")}: no such section (${SECTIONS.join(", ")})`);
  process.exit(2);
}

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}`;
const want = (section: string) => only === null || only.includes(section);
// The in-process sections time the kernel the runs use: refuse to time the TypeScript reference in its place
// (a bundle that cannot find dist/wasm, a build without it).
const kernelProblem = wasmKernelProblem();
if (kernelProblem !== null && ["kernel", "stages", "maxMargin"].some(want)) {
  console.error(`bench: ${kernelProblem}: the kernel, stages and maxMargin figures would time the TypeScript kernel instead`);
  process.exit(1);
}
const results = {
  machine,
  ...(want("kernel") ? { kernel: { large: kernel(20_000, 500, 10, cReference), small: kernel(2_000, 100, 40, cReference) } } : {}),
  ...(want("generation") ? { generation: generation() } : {}),
  ...(want("stages") ? { stages: await stages(), stagesHeavy: await stages(HEAVY_GRID, 1000, 40) } : {}),
  ...(want("maxMargin") ? { maxMargin: maxMargin() } : {}),
  ...(want("sweep") ? { sweep: await sweep() } : {}),
  ...(want("grid") ? { grid: grid() } : {}),
  ...(want("scaling") ? { scaling: scaling() } : {}),
  ...((full && only === null) || only?.includes("scalingLarge") ? { scalingLarge: scalingLarge() } : {}),
  ...(want("peer") ? { peer: peer() } : {}),
  ...(full && want("memory") ? { memory: memory() } : {}),
  ...((full && only === null) || only?.includes("worstOrder") ? { worstOrder: worstOrderSection() } : {}),
};

const e = (value: number) => value.toExponential(2);
console.log(`perceptron-lab bench on ${machine}\n`);
const k = results.kernel;
if (k) {
  console.log(`kernel, madds/s on one thread   large (n 20 000, d 500): ${e(k.large.maddsPerSecond)}   small (n 2 000, d 100): ${e(k.small.maddsPerSecond)}`);
  console.log(`  TypeScript reference                                  ${e(k.large.typescriptMaddsPerSecond)}                         ${e(k.small.typescriptMaddsPerSecond)}`);
  if (k.large.cReference && k.small.cReference) {
    console.log(`  C, gcc -O3                                            ${e(k.large.cReference.o3.maddsPerSecond)}                         ${e(k.small.cReference.o3.maddsPerSecond)}`);
    console.log(`  C, gcc -O3 -march=native -ffast-math                  ${e(k.large.cReference.o3NativeFastMath.maddsPerSecond)}                         ${e(k.small.cReference.o3NativeFastMath.maddsPerSecond)}`);
  }
}
if (results.generation) {
  for (const [version, figures] of Object.entries(results.generation.byVersion)) {
    console.log(`generation, data version ${version}       ${e(figures.valuesPerSecond)} values/s (planted, n 2 000, d 100), ${e(figures.normalsPerSecond)} normals/s (filling 2^20)`);
  }
}
if (results.stages) {
  const figures = results.stages.microsecondsPerRun;
  console.log(`stages of a small run, µs        ${STAGES.map((stage) => `${stage} ${figures[stage]!.toFixed(1)}`).join(", ")}`);
}
if (results.stagesHeavy) {
  const figures = results.stagesHeavy.microsecondsPerRun;
  console.log(`stages of a heavy run, µs        ${STAGES.map((stage) => `${stage} ${figures[stage]!.toFixed(0)}`).join(", ")}`);
}
if (results.maxMargin) {
  console.log("max-margin QP per run            n        d     QP ms   perceptron ms   QP / perceptron");
  for (const row of results.maxMargin) {
    console.log(`                                 ${String(row.n).padEnd(8)} ${String(row.d).padEnd(5)} ${row.msPerRun.toFixed(3).padStart(7)}   ${row.perceptronMsPerRun.toFixed(3).padStart(13)}   ${row.ratio.toFixed(1).padStart(15)}`);
  }
}
const s = results.sweep;
if (s) {
  console.log(`sweep of ${s.runs} small runs, runs/s in-process ${Math.round(s.runsPerSecond.inProcess)} (warm ${Math.round(s.runsPerSecond.inProcessWarm)}), 1 thread ${Math.round(s.runsPerSecond.threads1)}, 2 threads ${Math.round(s.runsPerSecond.threads2)}`);
  console.log(`                                 speedup ${s.speedup.toFixed(2)}, pool efficiency ${s.poolEfficiency.toFixed(2)}`);
}
if (results.grid) console.log(`grid of ${results.grid.points} points of ${results.grid.repeats} runs, 2 threads: ${Math.round(results.grid.pointsPerSecond)} points/s`);
if (results.scaling) {
  console.log(`scaling, ${results.scaling.runs} small runs     ${results.scaling.rows.map((row) => `${row.threads} thread${row.threads > 1 ? "s" : ""}: ${Math.round(row.runsPerSecond)}/s (${row.speedup.toFixed(2)}×)`).join(", ")}`);
  const micro = (value: number | null) => (value === null ? "?" : value.toFixed(0));
  console.log(`  CPU µs a run (process / main)   ${results.scaling.rows.map((row) => `${row.threads}: ${micro(row.cpuMicrosecondsPerRun)} / ${micro(row.coordinatorMicrosecondsPerRun)}`).join(", ")}`);
}
if (results.scalingLarge) {
  for (const sweep of results.scalingLarge) {
    console.log(`scaling, ${sweep.runs} ${sweep.sweep} runs ${sweep.rows.map((row) => `${row.threads}: ${Math.round(row.runsPerSecond)}/s (${row.speedup.toFixed(2)}×, ${Math.round(row.peakRssMb)} MB)`).join(", ")}`);
  }
}
if (results.peer) {
  if ("skipped" in results.peer) console.log(`peer: skipped: ${results.peer.skipped}`);
  else {
    console.log("peer (numpy + numba)              sweep    runs   workers   tool runs/s   peer runs/s   tool/peer   end to end: tool/peer   --tables parquet: tool/peer (end to end)   bounds all: tool/peer");
    for (const row of results.peer.rows) {
      console.log(
        `                                  ${row.sweep.padEnd(6)} ${String(row.runs).padStart(7)} ${String(row.workers).padStart(9)} ${Math.round(row.tool.sweep).toString().padStart(13)} ${Math.round(row.peer.sweep).toString().padStart(13)} ${row.ratio.sweep.toFixed(2).padStart(11)} ${row.ratio.endToEnd.toFixed(2).padStart(24)} ${`${row.ratioParquet.sweep.toFixed(2)} (${row.ratioParquet.endToEnd.toFixed(2)})`.padStart(42)} ${row.ratioAll.sweep.toFixed(2).padStart(23)}`,
      );
    }
  }
}
if (results.memory) console.log(`memory, 1 000 000 runs, 2 threads peak RSS ${Math.round(results.memory.peakRssMb)} MB`);
if (results.worstOrder) {
  console.log("worst order, exact W* in >= 90 % of 10 planted runs (bias, w(0) = 0, eta 1, default budget): largest n");
  for (const row of results.worstOrder) {
    const at = row.largest === null ? "none of the ladder" : `n ${row.largest.n} (${Math.round(row.largest.exactShare * 100)} % exact, ${row.largest.cpuSecondsPerRun.toFixed(2)} s CPU a run, median W* ${row.largest.medianLower} vs cyclic ${row.largest.medianCyclic})`;
    const past = row.failed === null ? "" : `; n ${row.failed.n}: ${Math.round(row.failed.exactShare * 100)} % exact`;
    console.log(`  d ${row.d}, margin ${row.margin}: ${at}${past}`);
  }
}
if (json) console.log(JSON.stringify(results));
