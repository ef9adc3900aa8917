import { BOUND_NAMES, type BoundSet } from "../bounds/convergence-bounds.js";
import { generateData } from "../generators/generate-data.js";
import { parseInit } from "../perceptron/initial-weights.js";
import { createRandom } from "../random/seeded-random.js";
import { analyseDataSet } from "./analyse-data-set.js";
import type { BoundColumn, RatioColumn, RunRow, RunSpec } from "./run-types.js";

/**
 * How far above a bound a converged run's updates must be to count as a violation: a relative 1e-9,
 * far above the rounding of the bounds' few floating-point operations, far below any real excess
 * (updates are integers).
 */
export const VIOLATION_TOLERANCE = 1e-9;

/** One run, start to end: generate → perceptron → bounds → row. Throws on a bug. */
export function executeRun(spec: RunSpec): RunRow {
  const init = parseInit(spec.init);
  if ("error" in init) throw new RangeError(`init ${JSON.stringify(spec.init)} ${init.error}`);
  const data = generateData(spec, createRandom(spec.seed, "data"));
  const analysis = analyseDataSet(data, {
    bias: spec.bias,
    eta: spec.eta,
    init,
    order: spec.order,
    maxEpochs: spec.maxEpochs,
    seed: spec.seed,
  });
  const { updates, epochs, converged } = analysis.perceptron;
  const bounds = analysis.planted?.bounds ?? null;
  return {
    ...identity(spec),
    status: "ok",
    error: null,
    converged,
    updates,
    epochs,
    learnerRadius: analysis.learnerRadius,
    plantedMargin: analysis.planted?.margin ?? null,
    violations: bounds === null ? null : countViolations(updates, converged, bounds),
    ...boundColumns(bounds),
    ...ratioColumns(updates, converged, bounds),
  };
}

/** A run that throws becomes a row with status "error" and its message: the sweep goes on. */
export function executeRunSafely(spec: RunSpec): RunRow {
  try {
    return executeRun(spec);
  } catch (error) {
    return errorRow(spec, error instanceof Error ? error.message : String(error));
  }
}

export function errorRow(spec: RunSpec, message: string): RunRow {
  return {
    ...identity(spec),
    status: "error",
    error: message,
    converged: null,
    updates: null,
    epochs: null,
    learnerRadius: null,
    plantedMargin: null,
    violations: null,
    ...boundColumns(null),
    ...ratioColumns(0, false, null),
  };
}

/** The spec's own fields, in column order, without maxEpochs (an experiment-wide setting). */
function identity(spec: RunSpec): Omit<RunSpec, "maxEpochs"> {
  const { run, grid, point, repeat, seed, generator, n, d, margin, radius, offset, bias, eta, init, order } = spec;
  return { run, grid, point, repeat, seed, generator, n, d, margin, radius, offset, bias, eta, init, order };
}

function capitalise<S extends string>(text: S): Capitalize<S> {
  return (text.charAt(0).toUpperCase() + text.slice(1)) as Capitalize<S>;
}

export function boundColumn(name: (typeof BOUND_NAMES)[number]): BoundColumn {
  return `planted${capitalise(name)}Bound`;
}

export function ratioColumn(name: (typeof BOUND_NAMES)[number]): RatioColumn {
  return `planted${capitalise(name)}Ratio`;
}

function boundColumns(bounds: BoundSet | null): Record<BoundColumn, number | null> {
  const columns = {} as Record<BoundColumn, number | null>;
  for (const name of BOUND_NAMES) columns[boundColumn(name)] = bounds?.[name] ?? null;
  return columns;
}

/**
 * observed / bound, for converged runs only (the updates of a run cut off at maxEpochs are not its
 * count); null where the bound does not apply or is 0 (ŵ(0) already separates, and then updates = 0).
 */
function ratioColumns(updates: number, converged: boolean, bounds: BoundSet | null): Record<RatioColumn, number | null> {
  const columns = {} as Record<RatioColumn, number | null>;
  for (const name of BOUND_NAMES) {
    const bound = bounds?.[name] ?? null;
    columns[ratioColumn(name)] = converged && bound !== null && bound > 0 ? updates / bound : null;
  }
  return columns;
}

/**
 * Bounds that a converged run's updates exceed (beyond VIOLATION_TOLERANCE). `best` is the smallest of
 * the others and is not counted again.
 */
export function countViolations(updates: number, converged: boolean, bounds: BoundSet): number {
  if (!converged) return 0;
  let count = 0;
  for (const name of BOUND_NAMES) {
    if (name === "best") continue;
    const bound = bounds[name];
    if (bound !== null && updates > bound * (1 + VIOLATION_TOLERANCE) + VIOLATION_TOLERANCE) count++;
  }
  return count;
}
