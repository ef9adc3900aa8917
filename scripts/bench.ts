/**
 * npm run bench [-- --json] [-- --full] [-- --c-reference] [-- --only kernel,generation,stages,maxMargin,sweep,grid,scaling,scalingLarge,peer,memory]: the figures of the speed work, measured here and never asserted
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
 *             command in a process of its own (`node dist/cli/main.js run … --no-report`, as
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
 *             (ratioAll, beside). Skipped, saying why, where the peer or its Python is missing.
 * memory      (--full only) peak RSS of a sweep of 1 000 000 small runs at 2 threads: the shipped command
 *             in a process of its own, as above; the peak its manifest records (peakRssMb: the coordinator
 *             and its worker threads, which share the process).
 *
 * kernel, generation, stages and maxMargin run the TypeScript sources (under tsx); sweep and memory the compiled
 * output (dist/, which `npm install` builds; `npm run build` after a change).
 */
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, cpus, tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { computeBoundsWithDots } from "../src/bounds/convergence-bounds.js";
import { freundSchapireAlong } from "../src/bounds/freund-schapire.js";
import { maxMarginSeparator } from "../src/bounds/max-margin-separator.js";
import { generateData } from "../src/generators/generate-data.js";
import { generatePlanted } from "../src/generators/planted.js";
import { rowDots } from "../src/perceptron/row-passes.js";
import { ScratchArray } from "../src/math/scratch-array.js";
import { plantedSeparator, toLearnerCoordinates } from "../src/perceptron/learner-coordinates.js";
import { runPerceptron, type PerceptronKernel } from "../src/perceptron/perceptron-kernel.js";
import { ResidentArrays, wasmKernelProblem } from "../src/perceptron/perceptron-wasm.js";
import { digestBinary } from "../src/aggregate/run-digest.js";
import { encodeRows } from "../src/export/binary-rows.js";
import { binaryLineViews } from "../src/export/run-lines.js";
import { typeScriptExecArgv } from "../src/pool/run-pool.js";
import { DATA_VERSIONS, LATEST_DATA_VERSION, type DataVersion } from "../src/random/data-version.js";
import { createDraws } from "../src/random/random-draws.js";
import { createRandom } from "../src/random/seeded-random.js";
import { residentBytes } from "../src/run/estimate-run-memory.js";
import { executeRun } from "../src/run/execute-run.js";
import type { RunRow } from "../src/run/run-types.js";
import { batchSpecs, type RunBatch } from "../src/sweep/run-batch.js";
import runBatches from "./bench-in-thread.js";
import { compiled, COMPILED_CLI, ROOT } from "./compiled.js";

const json = process.argv.includes("--json");
const full = process.argv.includes("--full");
const cReference = process.argv.includes("--c-reference");
/** --only kernel,generation,stages,maxMargin,sweep,grid,scaling,peer,memory: a subset of the sections (all by default). */
const onlyAt = process.argv.indexOf("--only");
const only = onlyAt < 0 ? null : (process.argv[onlyAt + 1] ?? "").split(",");
const SECTIONS = ["kernel", "generation", "stages", "maxMargin", "sweep", "grid", "scaling", "scalingLarge", "peer", "memory"];
const unknown = only?.filter((section) => !SECTIONS.includes(section)) ?? [];
if (unknown.length > 0) {
  console.error(`bench: --only ${unknown.map((section) => JSON.stringify(section)).join(", ")}: no such section (${SECTIONS.join(", ")})`);
  process.exit(2);
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Warm-up before timing: calls for at least this long, so that the JIT has optimised the code as it has
 * in a sweep's thousands of runs. One call was not enough: the planted generator's first ten data sets
 * of n 2 000, d 100 ran at 1.2·10⁷ values/s, later ones at ~2·10⁷.
 */
const WARM_UP_SECONDS = 0.5;

/** Median seconds of `repeats` calls, after warm-up calls (task(-1)) for WARM_UP_SECONDS. */
function seconds(repeats: number, task: (k: number) => unknown): number {
  const warm = process.hrtime.bigint() + BigInt(WARM_UP_SECONDS * 1e9);
  do task(-1);
  while (process.hrtime.bigint() < warm);
  return median(
    Array.from({ length: repeats }, (_, k) => {
      const start = process.hrtime.bigint();
      task(k);
      return Number(process.hrtime.bigint() - start) / 1e9;
    }),
  );
}

function kernel(n: number, d: number, epochs: number) {
  const data = generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0 }, createRandom(7, "data"));
  const random = createRandom(8, "data");
  for (let i = 0; i < n; i++) data.y[i] = random() < 0.5 ? 1 : -1;
  const learner = toLearnerCoordinates(data, true);
  const options = { eta: 1, initialWeights: new Float64Array(learner.dim), order: "cyclic", maxEpochs: epochs } as const;
  // Timed calls worth about 5·10⁸ madds (5 to 21 calls): a small case's call lasts milliseconds, and a
  // median of five of them once caught a slow spell of the shared machine (half the rate of runs before
  // and after).
  const repeats = Math.max(5, Math.min(21, Math.ceil(5e8 / (n * d * epochs))));
  const rate = (kernel: PerceptronKernel) => (n * d * epochs) / seconds(repeats, () => runPerceptron(learner, options, kernel));
  const updates = runPerceptron(learner, options).updates;
  return {
    n,
    d,
    epochs,
    updates,
    maddsPerSecond: rate("wasm"),
    typescriptMaddsPerSecond: rate("typescript"),
    ...(cReference ? { cReference: cKernel(learner.u, n, learner.dim, epochs, updates) } : {}),
  };
}

/** The C loop of scripts/reference-kernel.c at two optimisation levels, on the same u (needs gcc). */
function cKernel(u: Float64Array, n: number, dim: number, epochs: number, updates: number) {
  const folder = mkdtempSync(join(tmpdir(), "perceptron-lab-c-"));
  try {
    const data = join(folder, "u.f64");
    writeFileSync(data, u);
    const rate = (flags: string[]) => {
      const binary = join(folder, "kernel");
      execFileSync("gcc", [...flags, "-o", binary, "scripts/reference-kernel.c"]);
      const result = JSON.parse(execFileSync(binary, [data, String(n), String(dim), String(epochs), "5"], { encoding: "utf8" }));
      // The same loop in the same order makes the same mistakes; -ffast-math may reorder the sums.
      return { maddsPerSecond: (n * (dim - 1) * epochs) / result.seconds, sameUpdates: result.updates === updates };
    };
    return { o3: rate(["-O3"]), o3NativeFastMath: rate(["-O3", "-march=native", "-ffast-math"]) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

function generation() {
  const n = 2000;
  const d = 100;
  const planted = (version: DataVersion) => (n * d) / seconds(9, (k) => generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0 }, createDraws(100 + k, "data", version)));
  const normals = (version: DataVersion) => {
    const out = new Float64Array(1 << 20);
    const draws = createDraws(7, "data", version);
    return out.length / seconds(9, () => draws.normal.fill(out));
  };
  const byVersion = Object.fromEntries(DATA_VERSIONS.map((version) => [version, { valuesPerSecond: planted(version), normalsPerSecond: normals(version) }]));
  return { n, d, valuesPerSecond: byVersion[LATEST_DATA_VERSION]!.valuesPerSecond, byVersion };
}

const STAGES = ["data", "learner", "perceptron", "plantedBounds", "plantedFreundSchapire", "run", "rest", "rowsAsNumbers", "linesAndDigest"] as const;

/** The stages' own arrays for a run's points and learner coordinates, resident in the module as executeRun's are. */
const STAGE_ARRAYS = new ResidentArrays(2);
/** The stages' planted dots, as analyseDataSet's. */
const STAGE_DOTS = new ScratchArray();

/** The stages of `runs` runs of `grid` (after as many of warm-up), in batches of `batch`. */
async function stages(grid: typeof SMALL_RUNS.grid = SMALL_RUNS.grid, runs = 20_000, batch = 1000) {
  const specs = (await batchesOf(grid, 2 * runs, batch)).flatMap(batchSpecs);
  const pass = (from: number): Record<(typeof STAGES)[number], number> => {
    const total = new Float64Array(STAGES.length);
    let rows: RunRow[] = [];
    let at = process.hrtime.bigint();
    const lap = (stage: number) => {
      const now = process.hrtime.bigint();
      total[stage]! += Number(now - at) / 1e3;
      at = now;
    };
    for (const spec of specs.slice(from, from + runs)) {
      STAGE_ARRAYS.during(residentBytes(spec), ([points, learnerArray]) => {
        at = process.hrtime.bigint();
        const data = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), undefined, points);
        lap(0);
        const learner = toLearnerCoordinates(data, spec.bias, learnerArray);
        lap(1);
        const zero = new Float64Array(learner.dim);
        at = process.hrtime.bigint();
        const perceptron = runPerceptron(learner, { eta: spec.eta, initialWeights: zero, order: spec.order, maxEpochs: spec.maxEpochs });
        lap(2);
        // As analyseDataSet: the planted separator's dots once, for its margin and its Freund–Schapire search.
        const planted = plantedSeparator(data, spec.bias)!;
        const dots = STAGE_DOTS.view(learner.n);
        rowDots(learner.u, learner.n, learner.dim, planted, dots);
        computeBoundsWithDots(learner, planted, spec.eta, zero, dots);
        lap(3);
        freundSchapireAlong(learner, planted, perceptron.epochs, dots);
        lap(4);
      });
      at = process.hrtime.bigint();
      rows.push(executeRun(spec));
      lap(5);
      if (rows.length === batch) {
        // The worker's last step (its rows as numbers), then the exporter's (lines and digest from them).
        const binary = encodeRows(rows);
        lap(7);
        binaryLineViews(binary);
        digestBinary(binary);
        lap(8);
        rows = [];
      }
    }
    total[6] = total[5]! - total[0]! - total[1]! - total[2]! - total[3]! - total[4]!;
    return Object.fromEntries(STAGES.map((stage, k) => [stage, total[k]! / runs])) as Record<(typeof STAGES)[number], number>;
  };
  pass(runs); // warm-up
  const passes = [pass(0), pass(0), pass(0)];
  const microsecondsPerRun = Object.fromEntries(STAGES.map((stage) => [stage, Math.min(...passes.map((figures) => figures[stage]))]));
  return { runs, microsecondsPerRun };
}

function maxMargin() {
  return [
    { n: 100, d: 10, repeats: 201 },
    { n: 1000, d: 50, repeats: 21 },
    { n: 10000, d: 100, repeats: 3 },
  ].map(({ n, d, repeats }) => {
    const inputs = Array.from({ length: repeats + 1 }, (_, seed) =>
      toLearnerCoordinates(generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0.3 }, createRandom(seed, "data")), true),
    );
    const train = (k: number) => runPerceptron(inputs[k + 1]!, { eta: 1, initialWeights: new Float64Array(d + 1), order: "cyclic", maxEpochs: 100_000 });
    const hints = inputs.map((_, k) => train(k - 1).weights);
    const qp = seconds(repeats, (k) => maxMarginSeparator(inputs[k + 1]!, { separating: hints[k + 1]! }));
    const perceptron = seconds(repeats, train);
    return { n, d, msPerRun: qp * 1000, perceptronMsPerRun: perceptron * 1000, ratio: qp / perceptron };
  });
}

const SMALL_RUNS = { optimal: false, grid: { n: 100, d: 10, margin: 0.1 } };

/**
 * `runs` small runs through the shipped command (`node dist/cli/main.js run`) in a process of its own:
 * runs per second over the wall time its manifest records, and the process's peak RSS in MB.
 */
function cliSweep(runs: number, threads: number): CliSweep {
  return cliExperiment({ name: "bench", repeats: runs, ...SMALL_RUNS }, runs, threads);
}

/** An experiment of `runs` runs through the shipped command, as cliSweep; with its CPU time (see childCpuSeconds). */
function cliExperiment(experiment: object, runs: number, threads: number): CliSweep {
  const folder = mkdtempSync(join(tmpdir(), "perceptron-lab-bench-"));
  try {
    const file = join(folder, "bench.json");
    writeFileSync(file, JSON.stringify(experiment));
    const out = join(folder, "out");
    const cpuBefore = childCpuSeconds();
    execFileSync(process.execPath, [COMPILED_CLI, "run", file, "--out", out, "--threads", String(threads), "--quiet", "--no-report"], { stdio: ["ignore", "ignore", "inherit"] });
    const cpuAfter = childCpuSeconds();
    const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { wallSeconds: number; peakRssMb: number; coordinator: { cpuSeconds: number | null } };
    return {
      runsPerSecond: runs / manifest.wallSeconds,
      peakRssMb: manifest.peakRssMb,
      cpuMicrosecondsPerRun: cpuBefore === null || cpuAfter === null ? null : ((cpuAfter - cpuBefore) / runs) * 1e6,
      coordinatorMicrosecondsPerRun: manifest.coordinator.cpuSeconds === null ? null : (manifest.coordinator.cpuSeconds / runs) * 1e6,
    };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

interface CliSweep {
  readonly runsPerSecond: number;
  readonly peakRssMb: number;
  /** The process's CPU time, every thread and its start-up included, over its runs (null off Linux). */
  readonly cpuMicrosecondsPerRun: number | null;
  /** Its main thread's (the coordinator's) CPU time over its runs, as its manifest records it. */
  readonly coordinatorMicrosecondsPerRun: number | null;
}

/**
 * CPU seconds (user and system) of every child process this one has waited for, all their threads: the
 * cutime and cstime fields of Linux's /proc/self/stat, in clock ticks; null elsewhere. The difference
 * around one execFileSync is that command's CPU time.
 */
function childCpuSeconds(): number | null {
  try {
    const stat = readFileSync("/proc/self/stat", "utf8");
    // The fields after the command name (which may hold spaces, so split after its closing parenthesis):
    // state is field 3, cutime and cstime fields 16 and 17.
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[13]) + Number(fields[14])) / CLOCK_TICKS;
  } catch {
    return null;
  }
}

/** Clock ticks a second (getconf CLK_TCK; 100 on Linux's usual builds). */
const CLOCK_TICKS = (() => {
  try {
    return Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
  } catch {
    return 100;
  }
})();

/** The small sweep's batches of 1 000 runs, planned by the compiled modules. */
function smallBatches(runs: number): Promise<RunBatch[]> {
  return batchesOf(SMALL_RUNS.grid, runs, 1000);
}

/** `runs` runs of one grid point (no max-margin) in batches of `size`, planned by the compiled modules. */
async function batchesOf(grid: typeof SMALL_RUNS.grid, runs: number, size: number): Promise<RunBatch[]> {
  const { parseExperiment } = await compiled<typeof import("../src/experiment/load-experiment.js")>("experiment/load-experiment.js");
  const { planSweep } = await compiled<typeof import("../src/sweep/plan-sweep.js")>("sweep/plan-sweep.js");
  const plan = planSweep(parseExperiment({ name: "bench", repeats: runs, optimal: false, grid }, "bench"));
  const batches: RunBatch[] = [];
  for (const point of plan.points()) {
    for (let from = 0; from < plan.repeats; from += size) batches.push({ settings: plan.settings, ranges: [{ point, from, to: Math.min(plan.repeats, from + size) }] });
  }
  return batches;
}

/** The heavy runs (n 1 000, d 50, margin 0.05) of scalingLarge, stagesHeavy and the peer's heavy sweep. */
const HEAVY_GRID = { n: 1000, d: 50, margin: 0.05 };

/** A plain loop over the batches in a fresh thread (scripts/bench-in-thread.ts), timed once from cold. */
function inFreshThread(batches: RunBatch[]): Promise<number> {
  // This script's own extension: bench-in-thread.ts under tsx, its bundle's .mjs beside the bundle (npm run bench:bundle).
  const extension = extname(fileURLToPath(import.meta.url));
  const filename = new URL(`./bench-in-thread${extension}`, import.meta.url).href;
  const thread = new Piscina({ filename, minThreads: 1, maxThreads: 1, execArgv: extension === ".ts" ? typeScriptExecArgv() : undefined });
  return thread.run(batches).finally(() => thread.close()) as Promise<number>;
}

/**
 * Rounds of the three measurements, interleaved (fresh-thread loop, 1 thread, 2 threads), so that a slow
 * spell of this shared machine weighs on all three alike; the ratios are the medians of each round's.
 */
const SWEEP_ROUNDS = 5;

async function sweep() {
  const runs = 20_000;
  const batches = await smallBatches(runs);
  // The same loop on this (warm) thread, after a warm-up: for comparison only.
  await runBatches(batches);
  const warm = median([await runBatches(batches), await runBatches(batches), await runBatches(batches)]);
  const rounds: { inProcess: number; one: number; two: number }[] = [];
  for (let k = 0; k < SWEEP_ROUNDS; k++) {
    rounds.push({ inProcess: await inFreshThread(batches), one: cliSweep(runs, 1).runsPerSecond, two: cliSweep(runs, 2).runsPerSecond });
  }
  return {
    runs,
    rounds: SWEEP_ROUNDS,
    runsPerSecond: {
      inProcess: median(rounds.map((round) => round.inProcess)),
      inProcessWarm: warm,
      threads1: median(rounds.map((round) => round.one)),
      threads2: median(rounds.map((round) => round.two)),
    },
    speedup: median(rounds.map((round) => round.two / round.one)),
    poolEfficiency: median(rounds.map((round) => round.one / round.inProcess)),
  };
}

/** The threads to measure: 1, 2, 4, … up to the machine's available parallelism (which is included). */
function threadCounts(): number[] {
  const cores = availableParallelism();
  const counts: number[] = [];
  for (let t = 1; t < cores; t *= 2) counts.push(t);
  counts.push(cores);
  return counts;
}

/** 20 000 small runs at 1, 2, 4, … threads up to the machine's cores, median of three each. */
function scaling() {
  const runs = 20_000;
  const rows = threadCounts().map((threads) => {
    const sweeps = [0, 1, 2].map(() => cliSweep(runs, threads));
    const of = (figure: (sweep: CliSweep) => number | null) => {
      const values = sweeps.map(figure);
      return values.some((value) => value === null) ? null : median(values as number[]);
    };
    return { threads, runsPerSecond: of((sweep) => sweep.runsPerSecond)!, cpuMicrosecondsPerRun: of((sweep) => sweep.cpuMicrosecondsPerRun), coordinatorMicrosecondsPerRun: of((sweep) => sweep.coordinatorMicrosecondsPerRun) };
  });
  const one = rows[0]!.runsPerSecond;
  return { runs, rows: rows.map((row) => ({ ...row, speedup: row.runsPerSecond / one })) };
}

/** The issue's scaling sweeps (see the header), each once at 1, 2, 4, … threads. */
function scalingLarge() {
  const sweeps = [
    { name: "small", runs: 400_000, grid: SMALL_RUNS.grid },
    { name: "heavy", runs: 32_000, grid: HEAVY_GRID },
  ];
  return sweeps.map(({ name, runs, grid }) => {
    const rows = threadCounts().map((threads) => ({ threads, ...cliExperiment({ name: "bench", repeats: runs, optimal: false, grid }, runs, threads) }));
    const one = rows[0]!;
    return {
      sweep: name,
      runs,
      grid,
      rows: rows.map((row) => ({ ...row, speedup: row.runsPerSecond / one.runsPerSecond, rssMbPerAddedThread: row.threads === 1 ? null : (row.peakRssMb - one.peakRssMb) / (row.threads - 1) })),
    };
  });
}

/** The peer's two sweeps (../shared/peer/README.md): small and heavy, as its run-peer.sh names them. */
const PEER_SWEEPS = [
  { name: "small", runs: 100_000, n: 100, d: 10, margin: 0.1 },
  { name: "heavy", runs: 4_000, ...HEAVY_GRID },
] as const;

/** Where the peer lives (PEER_DIR, else ../shared/peer beside the repository) and the Python that runs it. */
function peerSetup(): { dir: string; python: string } | { skipped: string } {
  const dir = process.env.PEER_DIR ?? fileURLToPath(new URL("../shared/peer/", ROOT));
  if (!existsSync(join(dir, "run-peer.sh"))) return { skipped: `no peer at ${dir} (set PEER_DIR)` };
  const python = process.env.PEER_PYTHON ?? "python3";
  try {
    execFileSync(python, ["-c", "import numpy, numba"], { stdio: "ignore" });
  } catch {
    return { skipped: `${python} cannot import numpy and numba (python3 -m venv .venv && .venv/bin/pip install numpy numba; PEER_PYTHON=.venv/bin/python)` };
  }
  return { dir, python };
}

/** Seconds of wall time of a command, start-up included. */
function wallSeconds(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { seconds: number; stdout: string } {
  const start = process.hrtime.bigint();
  const stdout = execFileSync(command, args, { encoding: "utf8", env, stdio: ["ignore", "pipe", "inherit"] });
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, stdout };
}

/**
 * The tool against the numpy + numba peer on the peer's two sweeps, at 1 worker and at every core, in this
 * one invocation: per-run throughput of the sweep phase (the tool's manifest wall time; the peer's
 * runsPerSecondSweep) and end to end (each process's wall time, start-up included; the peer with numba's
 * cache warmed by one call first, as a researcher's second run would find it). Optimal off, no report.
 */
function peer() {
  const setup = peerSetup();
  if ("skipped" in setup) return { skipped: setup.skipped };
  const env = { ...process.env, PEER_PYTHON: setup.python, PEER_ARGS: "--cache" };
  const folder = mkdtempSync(join(tmpdir(), "perceptron-lab-peer-"));
  try {
    const cores = availableParallelism();
    const rows = [];
    for (const sweep of PEER_SWEEPS) {
      const args = (workers: number, runs: number) => [join(setup.dir, "run-peer.sh"), String(workers), String(runs), String(sweep.n), String(sweep.d), String(sweep.margin), join(folder, "peer.csv")];
      wallSeconds("bash", args(1, 100), env); // numba's cache, warm
      for (const workers of [...new Set([1, cores])]) {
        const peerRun = wallSeconds("bash", args(workers, sweep.runs), env);
        const peerFigures = JSON.parse(peerRun.stdout.trim().split("\n").filter((line) => line.startsWith("{")).at(-1)!) as { runsPerSecondSweep: number };
        // The tool as the peer runs (the default bounds, no max-margin), then with every bound (`bounds: "all"`) beside.
        const toolRates = (bounds: string) => {
          const experiment = { name: "bench-peer", repeats: sweep.runs, optimal: false, bounds, grid: { n: sweep.n, d: sweep.d, margin: sweep.margin } };
          const file = join(folder, "experiment.json");
          writeFileSync(file, JSON.stringify(experiment));
          const out = join(folder, "out");
          const toolRun = wallSeconds(process.execPath, [COMPILED_CLI, "run", file, "--out", out, "--overwrite", "--threads", String(workers), "--quiet", "--no-report"]);
          const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { wallSeconds: number };
          return { sweep: sweep.runs / manifest.wallSeconds, endToEnd: sweep.runs / toolRun.seconds };
        };
        const tool = toolRates("default");
        const toolAll = toolRates("all");
        const peerRates = { sweep: peerFigures.runsPerSecondSweep, endToEnd: sweep.runs / peerRun.seconds };
        rows.push({
          sweep: sweep.name,
          runs: sweep.runs,
          workers,
          tool,
          toolAll,
          peer: peerRates,
          ratio: { sweep: tool.sweep / peerRates.sweep, endToEnd: tool.endToEnd / peerRates.endToEnd },
          ratioAll: { sweep: toolAll.sweep / peerRates.sweep, endToEnd: toolAll.endToEnd / peerRates.endToEnd },
        });
      }
    }
    return { python: setup.python, rows };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

/** 2 000 grid points of 2 tiny runs each (see the header). */
function grid() {
  const tens = (from: number, step: number) => Array.from({ length: 10 }, (_, k) => from + k * step);
  const experiment = {
    name: "bench-grid",
    repeats: 2,
    optimal: false,
    grid: { n: 20, d: 2, margin: tens(0.1, 0.01), offset: tens(0, 0.01), eta: tens(0.5, 0.5), order: ["cyclic", "shuffle"] },
  };
  const points = 2000;
  const rates = [0, 1, 2].map(() => cliExperiment(experiment, 2 * points, 2).runsPerSecond / 2);
  return { points, repeats: 2, threads: 2, pointsPerSecond: median(rates) };
}

function memory() {
  return { runs: 1_000_000, threads: 2, peakRssMb: cliSweep(1_000_000, 2).peakRssMb };
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
  ...(want("kernel") ? { kernel: { large: kernel(20_000, 500, 10), small: kernel(2_000, 100, 40) } } : {}),
  ...(want("generation") ? { generation: generation() } : {}),
  ...(want("stages") ? { stages: await stages(), stagesHeavy: await stages(HEAVY_GRID, 1000, 40) } : {}),
  ...(want("maxMargin") ? { maxMargin: maxMargin() } : {}),
  ...(want("sweep") ? { sweep: await sweep() } : {}),
  ...(want("grid") ? { grid: grid() } : {}),
  ...(want("scaling") ? { scaling: scaling() } : {}),
  ...((full && only === null) || only?.includes("scalingLarge") ? { scalingLarge: scalingLarge() } : {}),
  ...(want("peer") ? { peer: peer() } : {}),
  ...(full && want("memory") ? { memory: memory() } : {}),
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
    console.log("peer (numpy + numba)              sweep    runs   workers   tool runs/s   peer runs/s   tool/peer   end to end: tool/peer   bounds all: tool/peer");
    for (const row of results.peer.rows) {
      console.log(
        `                                  ${row.sweep.padEnd(6)} ${String(row.runs).padStart(7)} ${String(row.workers).padStart(9)} ${Math.round(row.tool.sweep).toString().padStart(13)} ${Math.round(row.peer.sweep).toString().padStart(13)} ${row.ratio.sweep.toFixed(2).padStart(11)} ${row.ratio.endToEnd.toFixed(2).padStart(24)} ${row.ratioAll.sweep.toFixed(2).padStart(23)}`,
      );
    }
  }
}
if (results.memory) console.log(`memory, 1 000 000 runs, 2 threads peak RSS ${Math.round(results.memory.peakRssMb)} MB`);
if (json) console.log(JSON.stringify(results));
