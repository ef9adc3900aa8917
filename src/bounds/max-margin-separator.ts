import { createRequire } from "node:module";
import type { solveQP as SolveQP } from "quadprog";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { dotEnclosure } from "../math/dot-enclosure.js";
import { square } from "../math/interval.js";
import { addDown, addUp, divUp, mulDown, sqrtDown, subDown } from "../math/outward-rounding.js";
import { separatorMargin } from "./separator-margin.js";
import { allFinite } from "../math/array-tests.js";
import { polish } from "./kkt-polish.js";
import { balancedCoordinates } from "./balanced-coordinates.js";

/**
 * optimal: a separating vector whose margin is within OPTIMALITY_GAP of the maximum (certified).
 * inexact: a separating vector, valid for the bounds, whose margin the certificate cannot pin down.
 * infeasible: the solver found the data not linearly separable in the learner's coordinates.
 * failed: the solver returned nothing usable (NaN, or a vector that does not separate).
 * too-large: not attempted, the problem exceeds MAX_MARGIN_LIMITS.
 */
export type MaxMarginStatus = "optimal" | "inexact" | "infeasible" | "failed" | "too-large";

export interface MaxMarginResult {
  readonly status: MaxMarginStatus;
  /** The separator (learner's coordinates, bias last, any scale), for optimal and inexact only. */
  readonly separator: Float64Array | null;
  /** Its margin γ = min_i ŵ·u_i / ‖ŵ‖, recomputed on the data. */
  readonly margin: number | null;
  /** An upper bound on the true maximum margin γ*, from the dual (weak duality). */
  readonly marginUpperBound: number | null;
  readonly message: string | null;
}

export interface MaxMarginOptions {
  /**
   * A vector known to separate the data (the perceptron's final weights when it converged): when the
   * solver calls the QP infeasible but this vector separates, the status is "failed", not "infeasible".
   */
  readonly separating?: Float64Array;
}

/** Relative gap between the achieved margin and the dual's upper bound under which it is "optimal". */
export const OPTIMALITY_GAP = 1e-6;

/**
 * Sizes taken on: the data hold n·dim numbers and every round of constraint generation scans them once;
 * each Goldfarb–Idnani solve works on dense dim × dim matrices.
 */
export const MAX_MARGIN_LIMITS = { entries: 1e8, dim: 2000 } as const;

/**
 * The max-margin separator of docs/theory.md ("Which ŵ*"): the hard-margin SVM in the learner's (augmented)
 * coordinates with the bias penalised, min ‖ŵ‖² subject to ŵ·u_i ≥ 1, solved by quadprog (Goldfarb–Idnani
 * dual active set) by constraint generation over working sets of points. Then γ* = 1/‖ŵ‖.
 *
 * Nothing the solver returns is taken on trust:
 *  - the data are scaled by 1/R first (u_i/R has norm ≤ 1; the direction of the solution is unchanged);
 *  - the solution is polished by solving the KKT system on the solver's active set, on the unscaled data:
 *    ŵ = Σ_A λ_i u_i with ŵ·u_i = 1 on A (Gaussian elimination, no square roots: on the structured
 *    families' integer data this gives the exact separator), kept when it separates with a margin at
 *    least as large;
 *  - the margin is recomputed on the original data, so any bound built from the vector is valid whatever
 *    the solver's accuracy;
 *  - optimality is certified by weak duality: every λ ≥ 0 gives D(λ) = Σλ_i − ½‖Σλ_i u_i‖² ≤ ½‖ŵ*‖², so
 *    γ* ≤ 1/√(2 D(λ)). Within OPTIMALITY_GAP of that, the status is "optimal".
 */
export function maxMarginSeparator(data: LearnerData, options: MaxMarginOptions = {}): MaxMarginResult {
  const result = solveMaxMargin(data, options);
  if (result.status !== "infeasible") return result;
  // "Infeasible" from quadprog may be its reach, not the data: with coordinates of very different scales (a
  // feature of 1e-150 beside the bias's 1) the margin is tiny against the radius, and its absolute tests give
  // up. The same data with each coordinate scaled by a power of two to [½, 1) (exact) are solved again: a
  // separator of those maps back to one of these (ŵ_j = ŵ'_j·s_j), verified on the original data. It separates,
  // but it is not the max-margin one of these coordinates (the scaling changes the norm minimised): inexact.
  const balanced = balancedCoordinates(data);
  if (balanced === null) return result;
  const other = solveMaxMargin(balanced.data, {});
  if (other.separator === null) return result;
  const separator = Float64Array.from(other.separator, (value, j) => value * balanced.scales[j]!);
  const margin = allFinite(separator) ? marginOf(separator, data) : 0;
  if (!(margin > 0)) return result;
  return {
    status: "inexact",
    separator,
    margin,
    marginUpperBound: null,
    message: "quadprog found the QP infeasible in the learner's coordinates, whose scales differ by orders of magnitude; a separator was found with each coordinate rescaled (not certified the max-margin one)",
  };
}

function solveMaxMargin(data: LearnerData, options: MaxMarginOptions): MaxMarginResult {
  const { n, dim, u, radiusSquared } = data;
  if (n * dim > MAX_MARGIN_LIMITS.entries || dim > MAX_MARGIN_LIMITS.dim) {
    const message = `n·dim = ${n * dim} numbers and dim = ${dim}: above what the dense QP solver takes (${MAX_MARGIN_LIMITS.entries} and ${MAX_MARGIN_LIMITS.dim})`;
    return failure("too-large", message);
  }
  if (hasZeroVector(data)) {
    // ŵ·0 = 0 for every ŵ: a point at the origin of the learner's coordinates cannot be separated.
    return failure("infeasible", "the QP is infeasible: a point is the zero vector in the learner's coordinates, which no hyperplane through the origin separates");
  }
  // The constraint normals u_i/R first; where quadprog gives up on a known-separable problem, the same
  // normals times 2¹⁴, then 2²⁸ (its tests of a step's length are absolute, 2.2e-15: with a margin 1e-8 of the
  // radius the step towards a new constraint is about that small, and it had called such data infeasible).
  // An inexact solve is tried again too; the best separator found is kept.
  let result = failure("failed", "not solved");
  for (const factor of NORMAL_FACTORS) {
    const scale = factor / Math.sqrt(radiusSquared);
    const solved = constraintGeneration(data, options, scale);
    const attempt = "status" in solved ? solved : certified(data, solved, scale, options.separating);
    if (attempt.status === "optimal" || attempt.status === "infeasible") return attempt;
    if (result.separator === null || (attempt.margin !== null && attempt.margin > result.margin!)) result = attempt;
    if (attempt.status === "failed" && options.separating === undefined) return result;
  }
  return result;
}

/** The factors of the constraint normals u_i/R that maxMarginSeparator tries, in turn. */
const NORMAL_FACTORS = [1, 2 ** 14, 2 ** 28] as const;

/**
 * Constraint generation at one scale of the normals: solve on a working set, add the points the solution
 * violates, repeat. The optimum of a subset that satisfies every constraint is the optimum of the whole; a
 * subset that is infeasible proves the whole infeasible. The working set stays near the support vectors (at
 * most dim + 1 of them are needed), so each QP is small whatever n.
 */
function constraintGeneration(data: LearnerData, options: MaxMarginOptions, scale: number): SubsetSolution | MaxMarginResult {
  const { n, dim } = data;
  let working = initialWorkingSet(data, options.separating);
  const inWorking = new Uint8Array(n);
  for (const i of working) inWorking[i] = 1;
  for (let round = 0; ; round++) {
    const attempt = solveSubset(data, working, scale);
    if (typeof attempt === "string") {
      if (attempt !== INCONSISTENT) return failure("failed", `quadprog: ${attempt}`);
      const known = options.separating;
      if (known !== undefined && marginOf(known, data) > 0) {
        return failure("failed", "quadprog reported the QP infeasible, yet a known vector separates the data: the problem is beyond its numerical reach (a margin tiny against the radius)");
      }
      return failure("infeasible", "the QP is infeasible: the data are not linearly separable in the learner's coordinates");
    }
    const violated = mostViolated(data, attempt.solution, scale, inWorking, Math.max(dim, 16));
    if (violated.length === 0 || round === MAX_ROUNDS) return attempt;
    // Keep the active constraints, drop the rest (they do not shape the subset's optimum), add the
    // violated: the subset's optimal value then rises strictly every round, so no set repeats.
    for (const i of working) inWorking[i] = 0;
    working = [...attempt.active, ...violated];
    for (const i of working) inWorking[i] = 1;
  }
}

/** The separator of a solved problem (polished, or as solved), its margin on the data, and its certificate by weak duality. */
function certified(data: LearnerData, solved: SubsetSolution, scale: number, known?: Float64Array): MaxMarginResult {
  const { n, dim, u } = data;
  const original = (i: number, j: number) => u[i * dim + j]!;
  const raw = solved.solution;
  // The scaled problem's multipliers λ' give the original problem's λ = λ'/R² (ŵ = ŵ'/R = Σ λ'/R² u_i).
  const multipliers = new Float64Array(n);
  solved.multipliers.forEach((value, k) => (multipliers[solved.subset[k]!] = value * scale * scale));
  const active = solved.active;
  const polished = polish(active, dim, original);

  let best: { separator: Float64Array; margin: number } | null = null;
  for (const candidate of [polished?.separator, raw]) {
    if (candidate === undefined || !allFinite(candidate)) continue;
    const margin = marginOf(candidate, data);
    if (margin > 0 && (best === null || margin > best.margin)) best = { separator: candidate, margin };
  }
  if (best === null) return failure("failed", "quadprog returned no vector that separates the data");

  // Weak duality: the best dual value among the solver's and the polished multipliers.
  let dual = dualValue(multipliers, n, dim, original);
  if (polished) {
    const full = new Float64Array(n);
    active.forEach((i, k) => (full[i] = polished.multipliers[k]!));
    dual = Math.max(dual, dualValue(full, n, dim, original));
  }
  const upper = dual > 0 ? divUp(1, sqrtDown(mulDown(2, dual))) : Infinity;
  if (best.margin < upper * (1 - OPTIMALITY_GAP) && known !== undefined) {
    // Not certified: a known separating vector (the planted one, the perceptron's) with a larger margin is the better separator.
    const margin = marginOf(known, data);
    if (margin > best.margin) best = { separator: Float64Array.from(known), margin };
  }
  const status = best.margin >= upper * (1 - OPTIMALITY_GAP) ? "optimal" : "inexact";
  return {
    status,
    separator: best.separator,
    margin: best.margin,
    marginUpperBound: Number.isFinite(upper) ? Math.max(upper, best.margin) : null,
    message: status === "optimal" ? null : `margin ${best.margin} certified only up to ${upper}`,
  };
}

/**
 * The separator of min ½‖ŵ‖² − ŵ·ℓ s.t. ŵ·u_i ≥ 1 (any scale; null when quadprog fails or the data are
 * not separable), by the same constraint generation as maxMarginSeparator. At ℓ = 0 it is the max-margin
 * separator; as ℓ = s·v grows it trades margin for alignment with v, along the frontier on which the
 * separators with the smallest Hu D² and N(v) lie (tightest-separators.ts). Not certified: whoever uses it
 * recomputes its margin and bounds from the vector.
 */
export function alignedSeparator(data: LearnerData, linear: ArrayLike<number>, separating?: Float64Array): Float64Array | null {
  const { n, dim } = data;
  if (n * dim > MAX_MARGIN_LIMITS.entries || dim > MAX_MARGIN_LIMITS.dim || hasZeroVector(data)) return null;
  const scale = 1 / Math.sqrt(data.radiusSquared);
  // In the scaled problem (ŵ' = Rŵ, u_i/R) the objective is R²(½‖ŵ‖² − ŵ·ℓ) = ½‖ŵ'‖² − ŵ'·(Rℓ).
  const scaled = Float64Array.from(linear, (value) => value / scale);
  // Near the max-margin separator (the search's start) the constraints that bind are near its support
  // vectors: start from the 2·dim points closest to it, not from every point (a tenth of the time at n 100).
  let working = initialWorkingSet(data, separating, Math.min(n, 2 * dim));
  const inWorking = new Uint8Array(n);
  for (const i of working) inWorking[i] = 1;
  for (let round = 0; round <= MAX_ROUNDS; round++) {
    const attempt = solveSubset(data, working, scale, scaled);
    if (typeof attempt === "string") return null;
    const violated = mostViolated(data, attempt.solution, scale, inWorking, Math.max(dim, 16));
    if (violated.length === 0 || round === MAX_ROUNDS) return allFinite(attempt.solution) ? attempt.solution : null;
    for (const i of working) inWorking[i] = 0;
    working = [...attempt.active, ...violated];
    for (const i of working) inWorking[i] = 1;
  }
  return null;
}

/** Rounds of constraint generation before the last solution is taken as it is (and certified or not). */
const MAX_ROUNDS = 100;
const INCONSISTENT = "constraints are inconsistent, no solution!";

interface SubsetSolution {
  /** The subset it was solved on (global indices). */
  readonly subset: readonly number[];
  /** The scaled problem's solution ŵ' (ŵ'·u_i/R ≥ 1 on the subset). */
  readonly solution: Float64Array;
  /** Its multipliers, one per subset point, in subset order. */
  readonly multipliers: Float64Array;
  /** Global indices of the active constraints. */
  readonly active: number[];
}

/**
 * The first working set: every point when there are few (n ≤ 8·dim or n ≤ 256: one solve is cheaper
 * than rounds), else the 2·dim points closest to a known separating hyperplane (the likely support
 * vectors), or the first 2·dim points without one; or the `size` points closest to it.
 */
function initialWorkingSet(data: LearnerData, separating: Float64Array | undefined, size = data.n <= Math.max(8 * data.dim, 256) ? data.n : 2 * data.dim): number[] {
  const { n, dim, u } = data;
  const indices = Array.from({ length: n }, (_, i) => i);
  if (separating === undefined || size === n) return indices.slice(0, size);
  const score = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    let dot = 0;
    let norm2 = 0;
    for (let j = 0; j < dim; j++) {
      dot += separating[j]! * u[i * dim + j]!;
      norm2 += u[i * dim + j]! * u[i * dim + j]!;
    }
    score[i] = dot / Math.sqrt(norm2);
  }
  return indices.sort((a, b) => score[a]! - score[b]! || a - b).slice(0, size);
}

/**
 * min ½‖ŵ'‖² − ŵ'·linear s.t. ŵ'·u_i/R ≥ 1 over the subset, by quadprog (linear = 0: the max-margin
 * problem); a message string when it fails.
 */
function solveSubset(data: LearnerData, subset: readonly number[], scale: number, linear?: ArrayLike<number>): SubsetSolution | string {
  const { dim, u } = data;
  const m = subset.length;
  // quadprog's 1-based layout: Dmat = I (dim × dim), dvec = 0, Amat[j][k] = u_{subset[k], j} / R, bvec = 1.
  const dmat: number[][] = [[]];
  const amat: number[][] = [[]];
  for (let j = 1; j <= dim; j++) {
    const dRow = new Array<number>(dim + 1).fill(0);
    dRow[j] = 1;
    dmat.push(dRow);
    const aRow = new Array<number>(m + 1);
    aRow[0] = 0;
    for (let k = 1; k <= m; k++) aRow[k] = u[subset[k - 1]! * dim + j - 1]! * scale;
    amat.push(aRow);
  }
  const dvec = new Array<number>(dim + 1).fill(0);
  if (linear !== undefined) for (let j = 1; j <= dim; j++) dvec[j] = linear[j - 1]!;
  const bvec = new Array<number>(m + 1).fill(1);
  bvec[0] = 0;
  let result: ReturnType<typeof SolveQP>;
  try {
    result = quadprog()(dmat, dvec, amat, bvec);
  } catch (error) {
    return `threw ${error instanceof Error ? error.message : String(error)}`;
  }
  if (result.message !== "") return result.message;
  return {
    subset,
    solution: Float64Array.from(result.solution.slice(1, dim + 1)),
    multipliers: Float64Array.from(result.Lagrangian.slice(1, m + 1)),
    active: result.iact
      .slice(1)
      .filter((index) => index > 0)
      .map((index) => subset[index - 1]!),
  };
}

/** Up to `limit` points outside the working set that the solution violates, the worst first. */
function mostViolated(data: LearnerData, solution: Float64Array, scale: number, inWorking: Uint8Array, limit: number): number[] {
  const { n, dim, u } = data;
  const violated: { index: number; slack: number }[] = [];
  for (let i = 0; i < n; i++) {
    if (inWorking[i]) continue;
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += solution[j]! * u[i * dim + j]!;
    const slack = dot * scale;
    if (!(slack >= 1 - 1e-9)) violated.push({ index: i, slack: Number.isNaN(slack) ? -Infinity : slack });
  }
  violated.sort((a, b) => a.slack - b.slack || a.index - b.index);
  return violated.slice(0, limit).map((entry) => entry.index);
}

function failure(status: MaxMarginStatus, message: string): MaxMarginResult {
  return { status, separator: null, margin: null, marginUpperBound: null, message };
}

function hasZeroVector({ n, dim, u }: LearnerData): boolean {
  for (let i = 0; i < n; i++) {
    let zero = true;
    for (let j = 0; j < dim && zero; j++) zero = u[i * dim + j] === 0;
    if (zero) return true;
  }
  return false;
}

/** γ = min_i ŵ·u_i / ‖ŵ‖ on the learner's (unscaled) data, rounded down (separatorMargin). */
function marginOf(separator: Float64Array, data: LearnerData): number {
  return separatorMargin(data, separator).margin;
}

/**
 * A lower end of D(λ) = Σ λ_i − ½ ‖Σ λ_i u_i‖² with λ clamped at 0 (every λ ≥ 0 is dual-feasible): the
 * sums compensated and each operation rounded so that D can only come out smaller, and with it the margin
 * bound 1/√(2D) larger (docs/bounds.md, "Rounding").
 */
function dualValue(multipliers: Float64Array, n: number, dim: number, u: (i: number, j: number) => number): number {
  const active: number[] = [];
  const positive: number[] = [];
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const lambda = Math.max(0, multipliers[i]!);
    if (lambda === 0) continue;
    active.push(i);
    positive.push(lambda);
    sum = addDown(sum, lambda);
  }
  const lambdas = Float64Array.from(positive);
  const column = new Float64Array(active.length);
  let norm2 = 0;
  for (let j = 0; j < dim; j++) {
    active.forEach((i, k) => (column[k] = u(i, j)));
    norm2 = addUp(norm2, square(dotEnclosure(lambdas, 0, column, 0, active.length)).hi);
  }
  return subDown(sum, divUp(norm2, 2));
}

let solver: typeof SolveQP | null = null;

/**
 * quadprog's solveQP, loaded on first use (it is CommonJS): a sweep without max-margin separators, the
 * common case, never loads it, and each worker thread starts ~7 ms sooner.
 */
function quadprog(): typeof SolveQP {
  solver ??= (createRequire(import.meta.url)("quadprog") as { solveQP: typeof SolveQP }).solveQP;
  return solver;
}
