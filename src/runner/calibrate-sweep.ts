import { readFileSync } from "node:fs";
import { tableLayout } from "../run/table-layout.js";
import type { DataSets } from "../generators/generator-entry.js";
import { batchOutput } from "../pool/batch-output.js";
import { executeRun } from "../run/execute-run.js";
import { estimateRunCost, SPLIT_MODEL, splitRunCost } from "../sweep/estimate-run-cost.js";
import { runSpecOf, type RunSettings, type SweepPoint } from "../sweep/run-batch.js";

/** What `run --dry-run` measured to estimate the sweep's time: a few of its runs, timed in memory by the CPU they took. */
export interface Calibration {
  /** CPU seconds the sweep's (or shard's) runs should take in all: one thread's worth, which threads share out. */
  readonly cpuSeconds: number;
  /** Grid points timed (the first DISTINCT_REPEATS runs of each), and in how long, the warm-up included. */
  readonly timedRuns: number;
  readonly seconds: number;
  /**
   * The cost model against the pilot: each timed point after the first, its measured CPU over what the model
   * predicted from the timed point before it (the way an untimed point is estimated); the least and largest
   * factor, or null where fewer than two points were timed.
   */
  readonly modelError: { readonly low: number; readonly high: number; readonly points: number } | null;
}

/** A run whose estimated cost passes this many multiply-adds is not timed (a dry run must stay short): it is scaled from another's. */
const MAX_TIMED_COST = 2e7;
/** Runs before the timing, to compile the runs' code (at most half the budget: the engine's compiler threads, whose CPU a process's count includes, must be done). */
const WARM_UP_RUNS = 200;
/** The grid points timed at most: spread evenly over the sweep's order. */
const MAX_TIMED_POINTS = 64;

/**
 * The dry run's time estimate, gathered as describePlan walks the sweep's runs (add, in sweep order: one
 * walk, however large the sweep). It times the first runs (DISTINCT_REPEATS data sets) of every k-th grid point, up to MAX_TIMED_POINTS
 * of them spread over the sweep, for about `budgetMs` of CPU (nothing is written; each run as a worker runs it,
 * its max-margin QP, bounds and table lines included; their mean, after an untimed pass and up to
 * WARM_UP_RUNS untimed runs that compile their code, as a sweep's threads soon have). A timed point's runs
 * each take that mean; any other point's the time of the last timed point before it (in sweep order,
 * so mostly the same parameters; the first timed one for the points before it) scaled by their estimated
 * costs' ratio (splitRunCost: a fixed cost a run and its typical epochs). An estimate for planning, not a bound.
 */
export class SweepTimer {
  readonly #settings: RunSettings;
  readonly #dataSets: DataSets | undefined;
  readonly #budgetMs: number;
  readonly #step: number;
  #started: number | null = null;
  /** The CPU time at the first timing: the budget is one of CPU, so that a loaded machine (where a second of the clock holds a fifth of one of CPU) warms up and samples as much as a quiet one. */
  #startedCpu = 0;
  #timed = 0;
  #reference: { seconds: number; cost: number } | null = null;
  /** The first timed point's: the rate of the runs met before it. */
  #first: { seconds: number; cost: number } | null = null;
  /** The estimated cost of the runs added before any point was timed, waiting for a reference. */
  #pendingCost = 0;
  #cpuSeconds = 0;
  #point: { point: number; seconds: number | null; cost: number } | null = null;
  /** Each timed point's measured CPU over the model's prediction from the point timed before it. */
  readonly #errors: number[] = [];

  /** How a point's first run is timed, in seconds (a test's stand-in may replace the clock). */
  readonly #timeOf: (point: SweepPoint) => number;

  constructor(
    settings: RunSettings,
    pointCount: number,
    { dataSets, budgetMs = 1000, timeOf }: { readonly dataSets?: DataSets | undefined; readonly budgetMs?: number; readonly timeOf?: (point: SweepPoint) => number } = {},
  ) {
    this.#settings = settings;
    this.#dataSets = dataSets;
    this.#budgetMs = budgetMs;
    this.#step = Math.max(1, Math.floor(pointCount / MAX_TIMED_POINTS));
    this.#timeOf = timeOf ?? ((point) => this.#time(point));
  }

  /**
   * Counts `runs` runs of `point` (points in sweep order; a point's runs may come in several calls). Returns their
   * estimated CPU seconds, or null for runs met before any point was timed (their share is added to the total
   * once one is: result()).
   */
  add(point: SweepPoint, runs: number): number | null {
    if (this.#point?.point !== point.point) this.#point = this.#visit(point);
    const { seconds, cost } = this.#point;
    let added: number | null;
    if (seconds !== null) added = runs * seconds;
    else if (this.#reference === null) {
      this.#pendingCost += runs * cost;
      return null;
    } else added = (runs * this.#reference.seconds * cost) / this.#reference.cost;
    this.#cpuSeconds += added;
    return added;
  }

  /**
   * The CPU seconds of runs of estimated cost `cost` (splitRunCost) met before any point was timed: at the
   * first timed point's rate, as the total counts them; null before any was timed.
   */
  secondsOfCost(cost: number): number | null {
    return this.#first === null ? null : (cost * this.#first.seconds) / this.#first.cost;
  }

  /** The estimate, or null where no run was cheap enough to time. */
  result(): Calibration | null {
    if (this.#reference === null || this.#started === null) return null;
    const errors = this.#errors;
    const modelError = errors.length === 0 ? null : { low: Math.min(...errors), high: Math.max(...errors), points: errors.length };
    return { cpuSeconds: this.#cpuSeconds, timedRuns: this.#timed, seconds: (performance.now() - this.#started) / 1000, modelError };
  }

  /** A point met for the first time: timed if it is one of those sampled, cheap enough, and the budget allows. */
  #visit(point: SweepPoint): { point: number; seconds: number | null; cost: number } {
    // Scaled by the split's cost model (a run's fixed cost and its typical epochs); timed only where the
    // multiply-adds of its guessed epochs are few.
    const cost = splitRunCost(point.parameters, this.#settings.maxEpochs, SPLIT_MODEL);
    const untimed = { point: point.point, seconds: null, cost };
    if (point.point % this.#step !== 0 || estimateRunCost(point.parameters, this.#settings.maxEpochs) > MAX_TIMED_COST || this.#timed >= MAX_TIMED_POINTS) return untimed;
    if (this.#started === null) {
      this.#started = performance.now();
      this.#startedCpu = cpuSeconds();
      // A warm-up: the first calls of a run's code run interpreted, several times slower than once compiled.
      for (let k = 0; k < WARM_UP_RUNS && this.#cpuSpentMs() < this.#budgetMs / 2; k++) this.#timeOf(point);
    } else if (this.#cpuSpentMs() > this.#budgetMs) {
      return untimed;
    }
    // Timed after an untimed pass at this point: a run's time once its code is compiled, as nearly all of a sweep's
    // runs take (a point's first run may take paths the warm-up's point did not: its QP, a bound). One pass over
    // more data sets, not the faster of two over fewer: the data sets' spread is what the estimate lacked.
    this.#timeOf(point);
    const seconds = this.#timeOf(point);
    this.#timed++;
    if (this.#reference !== null) this.#errors.push(seconds / ((this.#reference.seconds * cost) / this.#reference.cost));
    this.#reference = { seconds, cost };
    this.#first ??= this.#reference;
    // The points before the first timed one take its time, scaled: the nearest reference they have.
    this.#cpuSeconds += (this.#pendingCost * seconds) / cost;
    this.#pendingCost = 0;
    return { point: point.point, seconds, cost };
  }

  /**
   * The run's CPU time in seconds, not its wall time: on a loaded machine a run waits for a core as long again
   * as it computes, and an estimate from the clock followed the load (margins.json "5 min of CPU" at load 35,
   * "27 s" at load 9, for 8.8 s measured). The point's first DISTINCT_REPEATS data sets are run in turn, and again
   * until MIN_TIMED_CPU has passed (a small run takes ~50 µs, near the counters' resolution), and the mean taken.
   */
  #cpuSpentMs(): number {
    return (cpuSeconds() - this.#startedCpu) * 1000;
  }

  #time(point: SweepPoint): number {
    const layout = tableLayout(this.#settings.extraBounds);
    // Repeats 0, 1, …, DISTINCT_REPEATS − 1 in turn: one data set's run says little of a point's (at margin 0.01
    // the updates of two data sets differ several times over), and a dry run from repeat 0 alone was 2.4× off
    // a 10⁸-run sweep's shards. Their specs made before the clock starts, as a worker is handed them.
    const specs = Array.from({ length: DISTINCT_REPEATS }, (_, repeat) => runSpecOf(this.#settings, point, repeat));
    const start = cpuSeconds();
    let runs = 0;
    let spent = 0;
    do {
      batchOutput([executeRun(specs[runs % DISTINCT_REPEATS]!, this.#dataSets)], { layout });
      runs++;
      spent = cpuSeconds() - start;
    } while ((spent < MIN_TIMED_CPU || (runs < DISTINCT_REPEATS && spent < MAX_TIMED_CPU)) && runs < MAX_REPEATS);
    return spent / runs;
  }
}

/**
 * The CPU a timing lasts at least, in seconds; the data sets it runs in turn (while under MAX_TIMED_CPU); the most
 * runs it takes.
 */
const MIN_TIMED_CPU = 0.002;
const DISTINCT_REPEATS = 24;
const MAX_TIMED_CPU = 0.1;
const MAX_REPEATS = 64;

/**
 * This thread's CPU time in seconds: process.threadCpuUsage where the engine has it (Node 23.9 and later); else, on
 * Linux, the thread's time on a CPU from /proc/thread-self/schedstat (nanoseconds); else the process's. Not the
 * process's where avoidable: it counts the engine's compiler threads, busy while the first runs are optimised,
 * which put Node 20's dry-run estimates of margins.json at 2–6 s of CPU where the thread's own gave 0.7–1.2 s.
 */
export function cpuSeconds(): number {
  const threadUsage = (process as { threadCpuUsage?: () => NodeJS.CpuUsage }).threadCpuUsage;
  if (typeof threadUsage === "function") {
    const usage = threadUsage.call(process);
    return (usage.user + usage.system) / 1e6;
  }
  if (schedstat !== false) {
    try {
      return Number(readFileSync(SCHEDSTAT, "latin1").split(" ", 1)[0]) / 1e9;
    } catch {
      schedstat = false;
    }
  }
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
}

const SCHEDSTAT = "/proc/thread-self/schedstat";
/** false once /proc/thread-self/schedstat could not be read (not Linux, no /proc). */
let schedstat: boolean | undefined;
