import { tableLayout } from "../run/table-layout.js";
import type { DataSets } from "../generators/generator-entry.js";
import { batchOutput } from "../pool/batch-output.js";
import { executeRun } from "../run/execute-run.js";
import { estimateRunCost } from "../sweep/estimate-run-cost.js";
import { runSpecOf, type RunSettings, type SweepPoint } from "../sweep/run-batch.js";

/** What `run --dry-run` measured to estimate the sweep's time: a few of its runs, timed in memory. */
export interface Calibration {
  /** CPU seconds the sweep's (or shard's) runs should take in all: one thread's worth, which threads share out. */
  readonly cpuSeconds: number;
  /** Runs timed (the first of as many grid points, each twice), and in how long, the warm-up included. */
  readonly timedRuns: number;
  readonly seconds: number;
}

/** A run whose estimated cost passes this many multiply-adds is not timed (a dry run must stay short): it is scaled from another's. */
const MAX_TIMED_COST = 2e7;
/** Runs before the timing, to compile the runs' code (at most a fifth of the budget). */
const WARM_UP_RUNS = 200;
/** The grid points timed at most: spread evenly over the sweep's order. */
const MAX_TIMED_POINTS = 64;

/**
 * The dry run's time estimate, gathered as describePlan walks the sweep's runs (add, in sweep order: one
 * walk, however large the sweep). It times the first run of every k-th grid point, up to MAX_TIMED_POINTS
 * of them spread over the sweep, for about `budgetMs` (nothing is written; each run as a worker runs it,
 * its max-margin QP, bounds and table lines included; the faster of two timings, after up to
 * WARM_UP_RUNS untimed runs that compile their code, as a sweep's threads soon have). A timed point's runs
 * each take its run's time; any other point's the time of the last timed point before it (in sweep order,
 * so mostly the same parameters; the first timed one for the points before it) scaled by their estimated
 * costs' ratio (estimateRunCost). An estimate for planning, not a bound.
 */
export class SweepTimer {
  readonly #settings: RunSettings;
  readonly #dataSets: DataSets | undefined;
  readonly #budgetMs: number;
  readonly #step: number;
  #started: number | null = null;
  #timed = 0;
  #reference: { seconds: number; cost: number } | null = null;
  /** The estimated cost of the runs added before any point was timed, waiting for a reference. */
  #pendingCost = 0;
  #cpuSeconds = 0;
  #point: { point: number; seconds: number | null; cost: number } | null = null;

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

  /** Counts `runs` runs of `point` (points in sweep order; a point's runs may come in several calls). */
  add(point: SweepPoint, runs: number): void {
    if (this.#point?.point !== point.point) this.#point = this.#visit(point);
    const { seconds, cost } = this.#point;
    if (seconds !== null) this.#cpuSeconds += runs * seconds;
    else if (this.#reference === null) this.#pendingCost += runs * cost;
    else this.#cpuSeconds += (runs * this.#reference.seconds * cost) / this.#reference.cost;
  }

  /** The estimate, or null where no run was cheap enough to time. */
  result(): Calibration | null {
    if (this.#reference === null || this.#started === null) return null;
    return { cpuSeconds: this.#cpuSeconds, timedRuns: this.#timed, seconds: (performance.now() - this.#started) / 1000 };
  }

  /** A point met for the first time: timed if it is one of those sampled, cheap enough, and the budget allows. */
  #visit(point: SweepPoint): { point: number; seconds: number | null; cost: number } {
    const cost = estimateRunCost(point.parameters, this.#settings.maxEpochs);
    const untimed = { point: point.point, seconds: null, cost };
    if (point.point % this.#step !== 0 || cost > MAX_TIMED_COST || this.#timed >= MAX_TIMED_POINTS) return untimed;
    if (this.#started === null) {
      this.#started = performance.now();
      // A warm-up: the first calls of a run's code run interpreted, several times slower than once compiled.
      for (let k = 0; k < WARM_UP_RUNS && performance.now() - this.#started < this.#budgetMs / 5; k++) this.#timeOf(point);
    } else if (performance.now() - this.#started > this.#budgetMs) {
      return untimed;
    }
    // The faster of two: a run's time once its code is compiled, as nearly all of a sweep's runs take.
    const seconds = Math.min(this.#timeOf(point), this.#timeOf(point));
    this.#timed++;
    this.#reference = { seconds, cost };
    // The points before the first timed one take its time, scaled: the nearest reference they have.
    this.#cpuSeconds += (this.#pendingCost * seconds) / cost;
    this.#pendingCost = 0;
    return { point: point.point, seconds, cost };
  }

  #time(point: SweepPoint): number {
    const start = performance.now();
    batchOutput([executeRun(runSpecOf(this.#settings, point, 0), this.#dataSets)], { layout: tableLayout(this.#settings.extraBounds) });
    return (performance.now() - start) / 1000;
  }
}
