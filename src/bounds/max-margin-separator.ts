import { solveQP } from "quadprog";
import type { LearnerData } from "../perceptron/learner-coordinates.js";

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
 * Sizes the dense Goldfarb–Idnani solver takes on: its constraint matrix holds n·dim numbers and each
 * iteration costs O(n·dim + dim²), for up to about dim iterations.
 */
export const MAX_MARGIN_LIMITS = { entries: 2e7, dim: 2000 } as const;

/**
 * The max-margin separator of THEORY.md ("Which ŵ*"): the hard-margin SVM in the learner's (augmented)
 * coordinates with the bias penalised, min ‖ŵ‖² subject to ŵ·u_i ≥ 1, solved by quadprog (Goldfarb–Idnani
 * dual active set). Then γ* = 1/‖ŵ‖.
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
  const { n, dim, u, radiusSquared } = data;
  if (n * dim > MAX_MARGIN_LIMITS.entries || dim > MAX_MARGIN_LIMITS.dim) {
    const message = `n·dim = ${n * dim} numbers and dim = ${dim}: above what the dense QP solver takes (${MAX_MARGIN_LIMITS.entries} and ${MAX_MARGIN_LIMITS.dim})`;
    return failure("too-large", message);
  }
  if (hasZeroVector(data)) {
    // ŵ·0 = 0 for every ŵ: a point at the origin of the learner's coordinates cannot be separated.
    return failure("infeasible", "the QP is infeasible: a point is the zero vector in the learner's coordinates, which no hyperplane through the origin separates");
  }
  const scale = 1 / Math.sqrt(radiusSquared);

  // quadprog's 1-based layout: Dmat = I (dim × dim), dvec = 0, Amat[j][i] = u_ij / R, bvec = 1.
  const dmat: number[][] = [[]];
  const amat: number[][] = [[]];
  for (let j = 1; j <= dim; j++) {
    const dRow = new Array<number>(dim + 1).fill(0);
    dRow[j] = 1;
    dmat.push(dRow);
    const aRow = new Array<number>(n + 1);
    aRow[0] = 0;
    for (let i = 1; i <= n; i++) aRow[i] = u[(i - 1) * dim + j - 1]! * scale;
    amat.push(aRow);
  }
  const dvec = new Array<number>(dim + 1).fill(0);
  const bvec = new Array<number>(n + 1).fill(1);
  bvec[0] = 0;

  let result: ReturnType<typeof solveQP>;
  try {
    result = solveQP(dmat, dvec, amat, bvec);
  } catch (error) {
    return failure("failed", `quadprog threw: ${error instanceof Error ? error.message : String(error)}`);
  }
  if (result.message === "constraints are inconsistent, no solution!") {
    const known = options.separating;
    if (known !== undefined && marginOf(known, data) > 0) {
      return failure("failed", "quadprog reported the QP infeasible, yet a known vector separates the data: the problem is beyond its numerical reach (a margin tiny against the radius)");
    }
    return failure("infeasible", "the QP is infeasible: the data are not linearly separable in the learner's coordinates");
  }
  if (result.message !== "") return failure("failed", `quadprog: ${result.message}`);

  const original = (i: number, j: number) => u[i * dim + j]!;
  const raw = Float64Array.from(result.solution.slice(1, dim + 1));
  // The scaled problem's multipliers λ' give the original problem's λ = λ'/R² (ŵ = ŵ'/R = Σ λ'/R² u_i).
  const multipliers = Float64Array.from(result.Lagrangian.slice(1, n + 1), (value) => value * scale * scale);
  const active = result.iact.slice(1).filter((index) => index > 0).map((index) => index - 1);
  const polished = polish(active, dim, original);

  let best: { separator: Float64Array; margin: number } | null = null;
  for (const candidate of [polished?.separator, raw]) {
    if (candidate === undefined || !candidate.every(Number.isFinite)) continue;
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
  const upper = dual > 0 ? 1 / Math.sqrt(2 * dual) : Infinity;
  const status = best.margin >= upper * (1 - OPTIMALITY_GAP) ? "optimal" : "inexact";
  return {
    status,
    separator: best.separator,
    margin: best.margin,
    marginUpperBound: Number.isFinite(upper) ? Math.max(upper, best.margin) : null,
    message: status === "optimal" ? null : `margin ${best.margin} certified only up to ${upper}`,
  };
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

/** γ = min_i ŵ·u_i / ‖ŵ‖ on the learner's (unscaled) data. */
function marginOf(separator: Float64Array, data: LearnerData): number {
  const { n, dim, u } = data;
  let norm2 = 0;
  for (let j = 0; j < dim; j++) norm2 += separator[j]! * separator[j]!;
  let min = Infinity;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    for (let j = 0; j < dim; j++) dot += separator[j]! * u[i * dim + j]!;
    if (dot < min) min = dot;
  }
  return min / Math.sqrt(norm2);
}

/** D(λ) = Σ λ_i − ½ ‖Σ λ_i u_i‖² with λ clamped at 0 (every λ ≥ 0 is dual-feasible). */
function dualValue(multipliers: Float64Array, n: number, dim: number, u: (i: number, j: number) => number): number {
  const combination = new Float64Array(dim);
  let sum = 0;
  for (let i = 0; i < n; i++) {
    const lambda = Math.max(0, multipliers[i]!);
    if (lambda === 0) continue;
    sum += lambda;
    for (let j = 0; j < dim; j++) combination[j]! += lambda * u(i, j);
  }
  let norm2 = 0;
  for (let j = 0; j < dim; j++) norm2 += combination[j]! * combination[j]!;
  return sum - norm2 / 2;
}

/**
 * The KKT solution on an active set A: G λ = 1 with G_kl = u_k·u_l, ŵ = Σ λ_k u_k. Null when G is
 * singular (linearly dependent active points) or a multiplier is negative (A is not the optimal set).
 */
function polish(active: readonly number[], dim: number, u: (i: number, j: number) => number): { separator: Float64Array; multipliers: Float64Array } | null {
  const size = active.length;
  if (size === 0 || size > dim) return null;
  const g: Float64Array[] = active.map((i) =>
    Float64Array.from(active, (l) => {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += u(i, j) * u(l, j);
      return dot;
    }),
  );
  const lambda = solveLinear(g, new Float64Array(size).fill(1));
  if (lambda === null || lambda.some((value) => !(value >= 0))) return null;
  const separator = new Float64Array(dim);
  active.forEach((i, k) => {
    for (let j = 0; j < dim; j++) separator[j]! += lambda[k]! * u(i, j);
  });
  return { separator, multipliers: lambda };
}

/** Gaussian elimination with partial pivoting; null for a (numerically) singular matrix. Overwrites a. */
function solveLinear(a: Float64Array[], b: Float64Array): Float64Array | null {
  const size = b.length;
  let largest = 0;
  for (const row of a) for (const value of row) largest = Math.max(largest, Math.abs(value));
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) <= 1e-12 * largest) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let row = col + 1; row < size; row++) {
      const factor = a[row]![col]! / a[col]![col]!;
      if (factor === 0) continue;
      for (let k = col; k < size; k++) a[row]![k]! -= factor * a[col]![k]!;
      b[row]! -= factor * b[col]!;
    }
  }
  const x = new Float64Array(size);
  for (let row = size - 1; row >= 0; row--) {
    let sum = b[row]!;
    for (let k = row + 1; k < size; k++) sum -= a[row]![k]! * x[k]!;
    x[row] = sum / a[row]![row]!;
  }
  return x;
}
