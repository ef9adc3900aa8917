import type { Experiment, Grid } from "../experiment/experiment.js";
import type { GeneratorName } from "../experiment/experiment-schema.js";
import { isPowerOfTwo } from "../generators/hadamard.js";
import type { PointParameters, RunSpec } from "../run/run-types.js";
import { rangeSpecs, type RunSettings, type SweepPoint } from "./run-batch.js";

/** Grid points a rule excluded, by reason. */
export interface SkippedPoints {
  readonly grid: number;
  readonly reason: string;
  readonly points: number;
}

/** The sweep of an experiment, counted without being held: runs are produced lazily, in order. */
export interface SweepPlan {
  readonly pointCount: number;
  /** Valid points of each grid. */
  readonly gridPointCounts: readonly number[];
  readonly runCount: number;
  readonly skipped: readonly SkippedPoints[];
  readonly settings: RunSettings;
  /** Runs per grid point. */
  readonly repeats: number;
  /** The valid grid points, in order; each has `repeats` runs. */
  points(): Generator<SweepPoint>;
  runs(): Generator<RunSpec>;
}

/**
 * Expands an experiment into its sweep: for each grid (in order), the Cartesian product of its lists in
 * the key order generator, n, d, margin, radius, offset, noise, overlap, c, bias, eta, init, order, times `repeats`
 * (innermost, so a grid point's runs are consecutive). Keys a generator does not use do not multiply its
 * runs; combinations that break a rule are skipped and counted by reason.
 */
export function planSweep(experiment: Experiment): SweepPlan {
  const skipped: SkippedPoints[] = [];
  const gridPointCounts = experiment.grids.map((grid, gridIndex) => {
    let valid = 0;
    const reasons = new Map<string, number>();
    for (const point of gridPoints(grid, experiment.dataFiles)) {
      const reason = exclusionReason(point);
      if (reason === null) valid++;
      else reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    for (const [reason, points] of reasons) skipped.push({ grid: gridIndex, reason, points });
    return valid;
  });
  const pointCount = gridPointCounts.reduce((sum, count) => sum + count, 0);
  const settings: RunSettings = { seed: experiment.seed, maxEpochs: experiment.maxEpochs, optimal: experiment.optimal, bounds: experiment.bounds, dataVersion: experiment.dataVersion };
  const points = () => sweepPoints(experiment);
  return {
    pointCount,
    gridPointCounts,
    runCount: pointCount * experiment.repeats,
    skipped,
    settings,
    repeats: experiment.repeats,
    points,
    runs: function* () {
      for (const point of points()) yield* rangeSpecs(settings, { point, from: 0, to: experiment.repeats });
    },
  };
}

function* sweepPoints(experiment: Experiment): Generator<SweepPoint> {
  let point = 0;
  for (let grid = 0; grid < experiment.grids.length; grid++) {
    for (const parameters of gridPoints(experiment.grids[grid]!, experiment.dataFiles)) {
      if (exclusionReason(parameters) !== null) continue;
      yield { grid, point, firstRun: point * experiment.repeats, parameters };
      point++;
    }
  }
}

/** Every combination of one grid, valid or not. */
export function* gridPoints(grid: Grid, dataFiles: Experiment["dataFiles"]): Generator<PointParameters> {
  for (const generator of grid.generator) {
    if (generator === "csv") {
      // A data file fixes n and d; the learner's keys sweep over it.
      for (const data of grid.data!) {
        const { n, d } = dataFiles[data]!;
        for (const bias of grid.bias ?? [true]) {
          for (const eta of grid.eta) {
            for (const init of grid.init) {
              for (const order of grid.order) {
                yield { generator, data, n, d, margin: null, radius: null, offset: null, noise: null, overlap: null, c: null, bias, eta, init, order };
              }
            }
          }
        }
      }
      continue;
    }
    const planted = generator === "planted";
    const threePoint = generator === "three-point";
    const margins = planted ? grid.margin! : [null];
    const radii = planted ? grid.radius : [null];
    const offsets = planted ? grid.offset : [null];
    const noises = planted ? grid.noise : [null];
    const overlaps = planted ? grid.overlap : [null];
    const cs = threePoint ? grid.c! : [null];
    const biases = grid.bias ?? [generator !== "orthonormal"];
    for (const n of grid.n ?? [THREE_POINT.n]) {
      for (const d of grid.d ?? [derivedDimension(generator, n)]) {
        for (const margin of margins) {
          for (const radius of radii) {
            for (const offset of offsets) {
              for (const noise of noises) {
                for (const overlap of overlaps) {
                  for (const c of cs) {
                    for (const bias of biases) {
                      for (const eta of grid.eta) {
                        for (const init of grid.init) {
                          for (const order of grid.order) {
                            yield { generator, data: null, n, d, margin, radius, offset, noise, overlap, c, bias, eta, init, order };
                          }
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

const THREE_POINT = { n: 3, d: 1 } as const;

function derivedDimension(generator: GeneratorName, n: number): number {
  switch (generator) {
    case "hadamard":
      return n - 1;
    case "three-point":
      return THREE_POINT.d;
    default:
      return n;
  }
}

/** The rule of docs/theory.md ("Generators with exact control") a combination breaks, or null. */
/**
 * The smallest planted margin, relative to the radius, that float64 can realise: a point's distance to the
 * hyperplane carries a rounding error of about 1e-15 × R, so below this the planted margin is no longer
 * the one asked for (at 1e-300 the points even fall on the wrong side, and the data are not separable).
 */
export const MIN_MARGIN_TO_RADIUS = 1e-12;

export function exclusionReason(p: PointParameters): string | null {
  switch (p.generator) {
    case "planted":
      if (p.margin! >= p.radius!) return "planted: margin must be smaller than radius";
      if (p.margin! < MIN_MARGIN_TO_RADIUS * p.radius!) return `planted: margin must be at least ${MIN_MARGIN_TO_RADIUS} × radius (float64 places points to about 1e-15 × radius)`;
      if (Math.abs(p.offset!) + p.margin! >= p.radius!) return "planted: |offset| + margin must be smaller than radius";
      if (!p.bias && p.offset !== 0) return "planted: offset must be 0 without a bias";
      if (Math.abs(p.offset!) + p.overlap! >= p.radius!) return "planted: |offset| + overlap must be smaller than radius";
      return null;
    case "orthonormal":
      if (p.bias) return "orthonormal: needs bias false";
      if (p.d !== p.n) return "orthonormal: needs d = n";
      return null;
    case "hadamard":
      if (!p.bias) return "hadamard: needs bias true";
      if (!isPowerOfTwo(p.n)) return "hadamard: needs n a power of 2";
      if (p.d !== p.n - 1) return "hadamard: needs d = n - 1";
      return null;
    case "three-point":
      if (!p.bias) return "three-point: needs bias true";
      if (p.n !== THREE_POINT.n || p.d !== THREE_POINT.d) return "three-point: has n = 3 and d = 1";
      return null;
    case "csv":
      return null;
  }
}
