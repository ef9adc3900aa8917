import type { Experiment } from "../experiment/experiment.js";
import type { Grid } from "../vocabulary/grid.js";
import type { FamilyKey } from "../generators/generator-entry.js";
import { generatorEntry } from "../generators/generator-registry.js";
import { exclusionReason, gridPoints } from "../generators/grid-points.js";
import { layoutGroups, pluginBoundNames } from "../run/table-layout.js";
import type { RunSpec } from "../run/run-types.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";
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
  const extraBounds = layoutGroups(pluginBoundNames(experiment.plugins), experiment.bounds);
  const settings: RunSettings = {
    seed: experiment.seed,
    maxEpochs: experiment.maxEpochs,
    optimal: experiment.optimal,
    bounds: experiment.bounds,
    dataVersion: experiment.dataVersion,
    ...(extraBounds.length === 0 ? {} : { extraBounds }),
    ...(experiment.worstOrderBudget === undefined ? {} : { worstOrderBudget: experiment.worstOrderBudget }),
  };
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




/**
 * Whether a point's repeats are one run repeated: data that no seed draws (a fixed family, a data file
 * without label noise), from ŵ(0) = 0, in an order that draws nothing (cyclic, or an adversarial rule but random-mistake). Their statistics are those of one run, not of independent ones.
 */
export function repeatsIdentical(p: PointParameters): boolean {
  // Label noise draws from the run's data stream, whatever the generator: each repeat flips its own labels.
  return !generatorEntry(p.generator).seeded && !((p.noise ?? 0) > 0) && p.init === "zero" && p.order !== "shuffle" && p.order !== "random-mistake";
}

/** The grid points whose repeats are one run repeated (see repeatsIdentical); 0 with a single repeat. */
export function identicalRepeatPoints(plan: Pick<SweepPlan, "repeats" | "points">): number {
  if (plan.repeats < 2) return 0;
  let count = 0;
  for (const point of plan.points()) if (repeatsIdentical(point.parameters)) count++;
  return count;
}
