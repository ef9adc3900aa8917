import { SMALL_RUNS, HEAVY_GRID } from "./grids.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { extname, join } from "node:path";
import { fileURLToPath } from "node:url";
import { Piscina } from "piscina";
import { typeScriptExecArgv } from "../../src/pool/run-pool.js";
import { type RunBatch } from "../../src/sweep/run-batch.js";
import runBatches from "../bench-in-thread.js";
import { compiled, COMPILED_CLI } from "../compiled.js";
import { median, seconds } from "./timing.js";
import { wallSeconds } from "./peer-section.js";

/** The sections that time whole sweeps: through the shipped command (sweep, grid, scaling, memory) and batches in a fresh thread. */

/**
 * `runs` small runs through the shipped command (`node dist/cli/perceptron-lab.mjs run`) in a process of its own:
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
export async function batchesOf(grid: typeof SMALL_RUNS.grid, runs: number, size: number): Promise<RunBatch[]> {
  const { parseExperiment } = await compiled<typeof import("../../src/experiment/load-experiment.js")>("experiment/load-experiment.js");
  const { planSweep } = await compiled<typeof import("../../src/sweep/plan-sweep.js")>("sweep/plan-sweep.js");
  const plan = planSweep(parseExperiment({ name: "bench", repeats: runs, optimal: false, grid }, "bench"));
  const batches: RunBatch[] = [];
  for (const point of plan.points()) {
    for (let from = 0; from < plan.repeats; from += size) batches.push({ settings: plan.settings, ranges: [{ point, from, to: Math.min(plan.repeats, from + size) }] });
  }
  return batches;
}

/** A plain loop over the batches in a fresh thread (scripts/bench-in-thread.ts), timed once from cold. */
function inFreshThread(batches: RunBatch[]): Promise<number> {
  // This script's own extension: under tsx, scripts/bench-in-thread.ts, a folder above this module (scripts/bench/);
  // bundled (npm run bench:bundle), bench-in-thread.mjs beside the bundle.
  const extension = extname(fileURLToPath(import.meta.url));
  const filename = new URL(extension === ".ts" ? "../bench-in-thread.ts" : "./bench-in-thread.mjs", import.meta.url).href;
  const thread = new Piscina({ filename, minThreads: 1, maxThreads: 1, execArgv: extension === ".ts" ? typeScriptExecArgv() : undefined });
  return thread.run(batches).finally(() => thread.close()) as Promise<number>;
}

/**
 * Rounds of the three measurements, interleaved (fresh-thread loop, 1 thread, 2 threads), so that a slow
 * spell of this shared machine weighs on all three alike; the ratios are the medians of each round's.
 */
const SWEEP_ROUNDS = 5;

export async function sweep() {
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
export function scaling() {
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

/** The scaling sweeps (see the header), each once at 1, 2, 4, … threads. */
export function scalingLarge() {
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

/** 2 000 grid points of 2 tiny runs each (see the header). */
export function grid() {
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

export function memory() {
  return { runs: 1_000_000, threads: 2, peakRssMb: cliSweep(1_000_000, 2).peakRssMb };
}
