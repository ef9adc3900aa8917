import { boundModes, capitalised, FACTOR_COLUMNS, PROOF_FACTORS, type BoundModes, type BoundsDeclaration } from "../bounds/bound-choice.js";
import { BOUND_COLUMNS, BOUND_NAMES, RATIO_COLUMNS } from "../bounds/bound-columns.js";
import type { BoundSet } from "../bounds/convergence-bounds.js";
import type { WorstOrder } from "../bounds/worst-order.js";
import { SEPARATOR_BOUNDS } from "../bounds/separator/separator-bounds.js";
import { generateData, type DataSets } from "../generators/generate-data.js";
import { generatorEntry } from "../generators/generator-registry.js";
import type { Float64Allocator } from "../math/scratch-array.js";
import { parseInit, type InitSpec } from "../perceptron/initial-weights.js";
import { ResidentArrays } from "../perceptron/perceptron-wasm.js";
import { NumericalRangeError } from "../perceptron/perceptron.js";
import { createDraws } from "../random/random-draws.js";
import type { APosteriori } from "./a-posteriori.js";
import { analyseDataSet } from "./analyse-data-set.js";
import { residentBytes } from "./estimate-run-memory.js";
import { expectedUpdates } from "./expected-updates.js";
import { replaceNonFinite } from "./non-finite.js";
import { tableLayout, type TableLayout } from "./table-layout.js";
import { A_POSTERIORI_COLUMNS, OTHER_BOUND_COLUMNS, OTHER_RATIO_COLUMNS, OUTCOME_COLUMNS } from "./run-columns.js";
import { type BoundColumn, type FactorColumn, type RatioColumn, type RunRow, type RunSpec } from "./run-types.js";
import { beyondSeparable, RUN_KEYS, SEPARATORS, type SeparatorName } from "../vocabulary/point-parameters.js";

/**
 * How far above a bound a converged run's updates must be to count as a violation: a relative 1e-9,
 * far above the rounding of the bounds' few floating-point operations, far below any real excess
 * (updates are integers).
 */
export const VIOLATION_TOLERANCE = 1e-9;

/**
 * This thread's arrays for a run's points and its learner's coordinates, reused run after run: a run's
 * data set and learner data live only inside executeRun (its row holds numbers and strings, never them).
 * They lie in the WebAssembly module's memory where it runs (ResidentArrays: the row passes and the epochs
 * then copy neither in nor out, ~80 µs of a heavy run), else in scratch arrays (two new arrays of ~8 KB a
 * small run, outside V8's heap, had cost ~7 µs of its ~90).
 */
const RESIDENT = new ResidentArrays(2);

/** One run, start to end: generate → perceptron → bounds (planted and max-margin) → row. Throws on a bug. */
export function executeRun(spec: RunSpec, dataSets?: DataSets): RunRow {
  const init = parseInit(spec.init);
  return RESIDENT.during(residentBytes(spec), ([points, learner]) => runWith(spec, init, dataSets, points!, learner!));
}

/** executeRun with the arrays for its points and its learner's coordinates. */
function runWith(spec: RunSpec, init: InitSpec, dataSets: DataSets | undefined, points: Float64Allocator, learner: Float64Allocator): RunRow {
  const modes = modesOf(spec.bounds);
  // The run's extra column groups (plug-in bounds, the worst order), looked up once: null without.
  const layout = spec.extraBounds !== undefined && spec.extraBounds.length > 0 ? tableLayout(spec.extraBounds) : null;
  const data = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), dataSets, points);
  const analysis = analyseDataSet(
    data,
    { bias: spec.bias, eta: spec.eta, init, order: spec.order, maxEpochs: spec.maxEpochs, seed: spec.seed, dataVersion: spec.dataVersion },
    // One shape for every run's options (no spread on the run path): extraBounds undefined without plug-in bounds.
    {
      optimal: spec.optimal,
      learnerArray: learner,
      bounds: modes,
      beyondSeparable: beyondSeparable(spec),
      // The plug-in bounds alone: the worst order is no plug-in's.
      extraBounds: layout === null || layout.extraBounds.length === 0 ? undefined : layout.extraBounds,
      worstOrderBudget: spec.worstOrderBudget,
    },
  );
  const withBest = modes.best !== "never";
  const { updates, epochs, converged } = analysis.perceptron;
  if (!beyondSeparable(spec) && analysis.planted !== null && !(analysis.planted.margin > 0)) {
    // The input rules keep margin ≥ 1e-12 × radius (MIN_MARGIN_TO_RADIUS), where this cannot happen.
    throw new NumericalRangeError(`the planted data came out with margin ${analysis.planted.margin} (not separated by the planted hyperplane): margin/radius is below float64's resolution`);
  }
  const bounds = { planted: withoutBest(analysis.planted?.bounds ?? null, withBest), optimal: withoutBest(analysis.optimal?.bounds ?? null, withBest) };
  const tightestHu = analysis.tightest?.hu?.bound ?? null;
  const tightestOptimised = analysis.tightest?.optimised?.bound ?? null;
  const best = withBest ? [bounds.planted?.best ?? null, bounds.optimal?.best ?? null, tightestHu, tightestOptimised].reduce(bestOf, null) : null;
  const fs = analysis.freundSchapire;
  const plantedFs = fs?.planted?.bound ?? null;
  const tightestFs = fs?.tightest?.bound ?? null;
  const ms = analysis.aPosteriori?.mistakeSet ?? null;
  const mistakeSet = [ms?.planted ?? null, ms?.optimal ?? null, ms?.tightest ?? null] as const;
  const expected = expectedUpdates(spec);
  const missed = missesExpectation(spec, updates, converged, expected, bounds.optimal) ? 1 : 0;
  const row = assembleRow(spec, {
    status: "ok",
    error: null,
    converged,
    updates,
    epochs,
    firstEpochMistakes: analysis.perceptron.firstEpochMistakes,
    lastEpochMistakes: analysis.perceptron.lastEpochMistakes,
    finalErrors: analysis.finalErrors,
    pocketErrors: analysis.pocketErrors,
    expectedUpdates: expected,
    learnerRadius: analysis.learnerRadius,
    separable: analysis.separable,
    wrongSide: analysis.wrongSide,
    plantedMargin: analysis.planted?.margin ?? null,
    optimalStatus: analysis.optimalStatus,
    optimalMargin: analysis.optimal?.margin ?? null,
  }, bounds, {
    tightestHuBound: tightestHu,
    tightestOptimisedBound: tightestOptimised,
    bestBound: best,
    plantedFreundSchapireBound: plantedFs,
    tightestFreundSchapireBound: tightestFs,
    tightestHuRatio: ratio(updates, converged, tightestHu),
    tightestOptimisedRatio: ratio(updates, converged, tightestOptimised),
    bestRatio: ratio(updates, converged, best),
    plantedFreundSchapireRatio: anyRunRatio(updates, plantedFs),
    tightestFreundSchapireRatio: anyRunRatio(updates, tightestFs),
    plantedMistakeSetBound: mistakeSet[0],
    optimalMistakeSetBound: mistakeSet[1],
    tightestMistakeSetBound: mistakeSet[2],
    plantedMistakeSetRatio: anyRunRatio(updates, mistakeSet[0]),
    optimalMistakeSetRatio: anyRunRatio(updates, mistakeSet[1]),
    tightestMistakeSetRatio: anyRunRatio(updates, mistakeSet[2]),
    violations:
      countViolations(updates, bounds.planted) +
      countViolations(updates, bounds.optimal) +
      [tightestHu, tightestOptimised, plantedFs, tightestFs, ...mistakeSet].filter((bound) => exceeds(updates, bound)).length +
      missed,
    nonFinite: null,
  }, factorFields(analysis.aPosteriori?.factors ?? null));
  if (layout !== null) {
    addPluginBounds(row, layout, updates, converged, analysis.planted?.extra ?? null, analysis.optimal?.extra ?? null);
    if (layout.worstOrder) addWorstOrder(row, analysis.worstOrder, updates, converged, bounds, best);
  }
  const { record, names } = replaceNonFinite(row);
  return names.length === 0 ? row : { ...record, nonFinite: names.join(" ") };
}

/**
 * The worst order's columns (bound-choice.ts, docs/theory.md "The worst order"): the longest order found, the
 * proved upper bound and the states expanded; where exact (the two equal), the run's updates over W* (converged
 * runs) and W* over each bound and the best. A converged run with more updates than the proved upper bound
 * counts as a violation: every order's count is at most W*.
 */
function addWorstOrder(row: RunRow, found: WorstOrder | null, updates: number, converged: boolean, bounds: { readonly planted: BoundSet | null; readonly optimal: BoundSet | null }, best: number | null): void {
  const fields = row as unknown as Record<string, number | null>;
  const exact = found !== null && found.lower === found.upper ? found.lower : null;
  fields.worstOrderLower = found?.lower ?? null;
  fields.worstOrderUpper = found?.upper ?? null;
  fields.worstOrderNodes = found?.nodes ?? null;
  fields.worstOrderLuck = converged && exact !== null && exact > 0 ? updates / exact : null;
  for (const separator of SEPARATORS) {
    for (const bound of SEPARATOR_BOUNDS) {
      const value = bounds[separator]?.[bound.name] ?? null;
      fields[`${separator}${capitalised(bound.name)}WorstRatio`] = exact === null ? null : anyRunRatio(exact, value);
    }
  }
  fields.bestWorstRatio = exact === null ? null : anyRunRatio(exact, best);
  if (converged && found !== null && updates > found.upper) fields.violations = (fields.violations ?? 0) + 1;
}

/**
 * A plug-in bound's columns (table-layout.ts): its value from each separator, and the ratio of a converged
 * run's updates to it. Not counted as violations: a plug-in's bound is the user's hypothesis, and a ratio
 * above 1 is what shows it failing (docs/plugins.md); `violations` stays the tool's own.
 */
function addPluginBounds(row: RunRow, layout: TableLayout, updates: number, converged: boolean, planted: readonly (number | null)[] | null, optimal: readonly (number | null)[] | null): void {
  const fields = row as unknown as Record<string, number | null>;
  layout.extraBounds.forEach((_, k) => {
    const values = [planted?.[k] ?? null, optimal?.[k] ?? null];
    values.forEach((value, s) => {
      fields[layout.extraBoundColumns[2 * k + s]!] = value;
      fields[layout.extraRatioColumns[2 * k + s]!] = ratio(updates, converged, value);
    });
  });
}

/** The last declaration's modes: a batch's runs share one declaration, so this resolves it once a batch. */
let lastModes: { declared: BoundsDeclaration; modes: BoundModes } | null = null;

function modesOf(declared: BoundsDeclaration): BoundModes {
  if (lastModes?.declared !== declared) lastModes = { declared, modes: boundModes(declared) };
  return lastModes.modes;
}

/** A separator's bounds without `best` where the experiment does not compute it. */
function withoutBest(bounds: BoundSet | null, withBest: boolean): BoundSet | null {
  return bounds === null || withBest ? bounds : { ...bounds, best: null };
}

/** A run's row in its own order: the identity (RUN_KEYS), HEAD_KEYS, the separator bounds, their ratios, TAIL_KEYS. */
const HEAD_KEYS = OUTCOME_COLUMNS;
const TAIL_KEYS = [...OTHER_BOUND_COLUMNS, ...OTHER_RATIO_COLUMNS, ...A_POSTERIORI_COLUMNS, "violations", "nonFinite"] as const satisfies readonly (keyof RunRow)[];

type RowHead = Pick<RunRow, (typeof HEAD_KEYS)[number]>;
type RowTail = Pick<RunRow, Exclude<(typeof TAIL_KEYS)[number], FactorColumn>>;

/** The factor columns of a run (null where `factors` is not listed, or a separator has none). */
function factorFields(factors: APosteriori["factors"]): Record<FactorColumn, number | null> {
  if (factors === null) return NO_FACTORS;
  const fields = {} as Record<FactorColumn, number | null>;
  let column = 0;
  for (const separator of SEPARATORS) {
    const values = factors[separator] ?? null;
    for (const factor of PROOF_FACTORS) fields[FACTOR_COLUMNS[column++]!] = values?.[factor] ?? null;
  }
  return fields;
}

/** The factor columns of a run that does not compute them (most): one record, the column names made once. */
const NO_FACTORS = Object.fromEntries(FACTOR_COLUMNS.map((column) => [column, null])) as Record<FactorColumn, number | null>;

/**
 * A row in column order: the spec's identity, `head`, every separator bound, every ratio, `tail` (its
 * factor columns from `factors`). One object literal written out once from the key lists (as ENCODE_ROW in
 * binary-rows.ts is from the columns): filled field by field through names known only at run time (a spread
 * of a null row, then `row[name] = …` a column), a small run's row took ~3 µs of its ~37, most of it in
 * lookups by key; a literal of known names makes the row's shape once.
 */
function assembleRow(spec: RunSpec, head: RowHead, bounds: BySeparator, tail: RowTail, factors: Record<FactorColumn, number | null>): RunRow {
  return ASSEMBLE_ROW(spec, head, bounds, tail, factors, ratio);
}

type RowAssembler = (
  spec: RunSpec,
  head: RowHead,
  bounds: BySeparator,
  tail: RowTail,
  factors: Record<FactorColumn, number | null>,
  ratioOf: typeof ratio,
) => RunRow;

const ASSEMBLE_ROW = (() => {
  const name = JSON.stringify;
  const boundValues: string[] = [];
  const fields: string[] = [...RUN_KEYS.map((key) => `${name(key)}: spec[${name(key)}]`), ...HEAD_KEYS.map((key) => `${name(key)}: head[${name(key)}]`)];
  let column = 0;
  for (const separator of SEPARATORS) {
    for (const bound of BOUND_NAMES) {
      boundValues.push(`const b${column} = bounds[${name(separator)}] == null ? null : (bounds[${name(separator)}][${name(bound)}] ?? null);`);
      fields.push(`${name(BOUND_COLUMNS[column]!)}: b${column}`);
      column++;
    }
  }
  for (let k = 0; k < column; k++) fields.push(`${name(RATIO_COLUMNS[k]!)}: ratioOf(updates, converged, b${k})`);
  const factorColumns: readonly string[] = FACTOR_COLUMNS;
  for (const key of TAIL_KEYS) fields.push(`${name(key)}: ${factorColumns.includes(key) ? "factors" : "tail"}[${name(key)}]`);
  return new Function(
    "spec",
    "head",
    "bounds",
    "tail",
    "factors",
    "ratioOf",
    ["const updates = head.updates ?? 0;", "const converged = head.converged === true;", ...boundValues, `return { ${fields.join(", ")} };`].join("\n"),
  ) as RowAssembler;
})();

/**
 * Whether a run contradicts docs/theory.md's exact count: a converged run must make exactly the expected
 * updates (and on the families whose entry says so, orthonormal and Hadamard, meet (R/γ*)² of the
 * max-margin separator exactly: ratio 1); a run cut off at maxEpochs must not have made more.
 */
function missesExpectation(spec: RunSpec, updates: number, converged: boolean, expected: number | null, optimal: BoundSet | null): boolean {
  if (expected === null) return false;
  if (!converged) return updates > expected;
  const tight = generatorEntry(spec.generator).tight;
  const novikoff = optimal?.novikoff ?? null;
  return updates !== expected || (tight && novikoff !== null && updates !== novikoff);
}

/** A run that throws becomes a row with status "error" and its message: the sweep goes on. */
export function executeRunSafely(spec: RunSpec, dataSets?: DataSets): RunRow {
  try {
    return executeRun(spec, dataSets);
  } catch (error) {
    return errorRow(spec, error instanceof Error ? error.message : String(error));
  }
}

export function errorRow(spec: RunSpec, message: string): RunRow {
  const row = errorRowOf(spec, message);
  if (spec.extraBounds !== undefined && spec.extraBounds.length > 0) {
    const layout = tableLayout(spec.extraBounds);
    addPluginBounds(row, layout, 0, false, null, null);
    if (layout.worstOrder) addWorstOrder(row, null, 0, false, { planted: null, optimal: null }, null);
  }
  return row;
}

function errorRowOf(spec: RunSpec, message: string): RunRow {
  const head: RowHead = {
    status: "error",
    error: message,
    converged: null,
    updates: null,
    epochs: null,
    firstEpochMistakes: null,
    lastEpochMistakes: null,
    finalErrors: null,
    pocketErrors: null,
    expectedUpdates: expectedUpdates(spec),
    learnerRadius: null,
    separable: null,
    wrongSide: null,
    plantedMargin: null,
    optimalStatus: null,
    optimalMargin: null,
  };
  return assembleRow(spec, head, NO_BOUNDS, {
    tightestHuBound: null,
    tightestOptimisedBound: null,
    bestBound: null,
    plantedFreundSchapireBound: null,
    tightestFreundSchapireBound: null,
    tightestHuRatio: null,
    tightestOptimisedRatio: null,
    bestRatio: null,
    plantedFreundSchapireRatio: null,
    tightestFreundSchapireRatio: null,
    plantedMistakeSetBound: null,
    optimalMistakeSetBound: null,
    tightestMistakeSetBound: null,
    plantedMistakeSetRatio: null,
    optimalMistakeSetRatio: null,
    tightestMistakeSetRatio: null,
    violations: null,
    nonFinite: null,
  }, NO_FACTORS);
}

const NO_BOUNDS = { planted: null, optimal: null } as const;

type BySeparator = Readonly<Record<SeparatorName, BoundSet | null>>;

/**
 * observed / bound, for converged runs only (the updates of a run cut off at maxEpochs are not its
 * count); null where the bound does not apply or is 0 (ŵ(0) already separates, and then updates = 0).
 */
export function ratio(updates: number, converged: boolean, bound: number | null): number | null {
  return converged ? anyRunRatio(updates, bound) : null;
}

/**
 * updates/bound for any run, converged or not: the Freund–Schapire bound holds at every epoch count. A bound
 * beyond float64 (∞, written empty) has no ratio: updates/∞ = 0 would read as a perfectly tight bound, and
 * enter the summaries as one.
 */
export function anyRunRatio(updates: number, bound: number | null): number | null {
  return bound !== null && bound > 0 && bound < Infinity ? updates / bound : null;
}

function bestOf(a: number | null, b: number | null): number | null {
  return a === null ? b : b === null ? a : Math.min(a, b);
}

/**
 * Bounds that a run's updates exceed (beyond VIOLATION_TOLERANCE). Updates only grow, so a run cut off at
 * maxEpochs is held to the bounds too. `best` is the smallest of the others and is not counted again.
 */
export function countViolations(updates: number, bounds: BoundSet | null): number {
  if (bounds === null) return 0;
  let count = 0;
  for (const name of BOUND_NAMES) {
    if (name !== "best" && exceeds(updates, bounds[name])) count++;
  }
  return count;
}

/** Whether updates exceed a bound beyond VIOLATION_TOLERANCE (never, for a bound that does not apply). */
export function exceeds(updates: number, bound: number | null): boolean {
  return bound !== null && updates > bound * (1 + VIOLATION_TOLERANCE) + VIOLATION_TOLERANCE;
}
