import { fdlibmPow } from "../math/fdlibm-pow.js";
import { goldenSection } from "../math/golden-section.js";
import type { LearnerData } from "../perceptron/learner-coordinates.js";
import { freundSchapireAlong, freundSchapireBound, freundSchapireRoot, type FreundSchapire } from "./freund-schapire.js";

/**
 * The tightest Freund–Schapire bound over (u, γ) (docs/theory.md, "Beyond separable data"): √FS(w) = R‖w‖ +
 * √E‖ξ(w)‖ is convex in w = u/γ, and its minimiser lies on the path of the squared-hinge SVM
 *
 *     min_w ½‖w‖² + (C/2) Σ_i ξ_i(w)²,  ξ_i(w) = max(0, 1 − w·u_i)   (bias penalised, learner's coordinates),
 *
 * the QP min ½‖w‖² + (C/2)‖ξ‖² s.t. w·u_i ≥ 1 − ξ_i with ξ eliminated. A search over C (a scan of
 * log C, then golden sections around the best) solves it at each step and keeps the w of the smallest √FS;
 * the bound is then recomputed from that w, rounded outward (freundSchapireBound), so an inexact solve
 * costs tightness, never validity. The directions of `starts` (the planted and max-margin separators) are
 * candidates too, each with its best γ, so the result is never above theirs.
 *
 * Each SVM is solved by the finite Newton method (Keerthi & DeCoste 2005, "A modified finite Newton
 * method for fast solution of large scale linear SVMs"): the objective is strongly convex and piecewise
 * quadratic, a Newton step on the current set of points with ξ_i > 0 followed by a line search ends when
 * that set no longer changes, with the QP's exact solution. quadprog on the QP's (dim + n)-variable form
 * took 23 ms at n = 100, d = 10 (scratch measurement), too slow for ~50 solves a run; the Newton solves
 * are warm-started along the path and take a few steps each.
 */
export function tightestFreundSchapire(data: LearnerData, epochs: number, starts: readonly (ArrayLike<number> | null)[]): FreundSchapire {
  const { dim } = data;
  const radius = Math.sqrt(data.radiusSquared);
  const solver = new SquaredHingeSolver(data);
  const w = new Float64Array(dim);
  let best = { root: freundSchapireRoot(data, w, epochs, radius), w: Float64Array.from(w), logC: -Infinity };
  const solveAt = (logC: number): number => {
    // fdlibmPow, not 2 ** logC (Math.pow): engines differ in its last bit, and C picks the vector the tables show.
    solver.solve(fdlibmPow(2, logC) / data.radiusSquared, w);
    const root = freundSchapireRoot(data, w, epochs, radius);
    if (root < best.root) best = { root, w: Float64Array.from(w), logC };
    return root;
  };
  for (let logC = SCAN.from; logC <= SCAN.to; logC += SCAN.step) solveAt(logC);
  if (Number.isFinite(best.logC)) {
    // Golden sections over log C around the best scanned point (√FS along the path is taken as unimodal there).
    goldenSection(best.logC - SCAN.step, best.logC + SCAN.step, GOLDEN_STEPS, solveAt);
  }
  let result: FreundSchapire = { bound: freundSchapireBound(data, best.w, epochs), w: best.w };
  for (const start of starts) {
    if (start === null) continue;
    const along = freundSchapireAlong(data, start, epochs);
    if (along.bound < result.bound) result = along;
  }
  return result;
}

/** log₂(C·R²) scanned from 2⁻²⁰ to 2⁶⁰ by factors of 32 (17 solves): the optimum of a margin 10⁻⁹·R lies near 2⁶⁰. */
const SCAN = { from: -20, to: 61, step: 5 } as const;
/** Golden sections: 20 narrow the bracket of 10 in log₂ C to 10⁻³, where √FS is flat to ~10⁻⁹ of itself. */
const GOLDEN_STEPS = 20;
/** Newton steps per solve before the iterate is taken as it stands (warm starts need 1-3). */
const MAX_NEWTON_STEPS = 50;

/** The squared-hinge SVM of one data set, solved at any C by finite Newton steps; buffers reused. */
export class SquaredHingeSolver {
  readonly #data: LearnerData;
  readonly #dots: Float64Array;
  readonly #steps: Float64Array;
  readonly #gradient: Float64Array;
  readonly #hessian: Float64Array;
  readonly #direction: Float64Array;
  readonly #trial: Float64Array;
  readonly #active: Uint8Array;

  constructor(data: LearnerData) {
    const { n, dim } = data;
    this.#data = data;
    this.#dots = new Float64Array(n);
    this.#steps = new Float64Array(n);
    this.#gradient = new Float64Array(dim);
    this.#hessian = new Float64Array(dim * dim);
    this.#direction = new Float64Array(dim);
    this.#trial = new Float64Array(dim);
    this.#active = new Uint8Array(n);
  }

  /** ½‖w‖² + (C/2)Σξ_i², and the dots w·u_i into `dots`. */
  #objective(c: number, w: Float64Array, dots: Float64Array): number {
    const { n, dim, u } = this.#data;
    let norm2 = 0;
    for (let j = 0; j < dim; j++) norm2 += w[j]! * w[j]!;
    let squares = 0;
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += w[j]! * u[i * dim + j]!;
      dots[i] = dot;
      if (dot < 1) squares += (1 - dot) * (1 - dot);
    }
    return 0.5 * norm2 + 0.5 * c * squares;
  }

  /** The SVM's solution at C, from the w given (a warm start), written into w. */
  solve(c: number, w: Float64Array): void {
    const { n, dim, u } = this.#data;
    const dots = this.#dots;
    const g = this.#gradient;
    const h = this.#hessian;
    const s = this.#direction;
    const active = this.#active;
    let value = this.#objective(c, w, dots);
    for (let step = 0; step < MAX_NEWTON_STEPS; step++) {
      // Gradient w − C Σ_A ξ_i u_i and Hessian I + C Σ_A u_i u_iᵀ over A = {i: w·u_i < 1}.
      g.set(w);
      h.fill(0);
      for (let j = 0; j < dim; j++) h[j * dim + j] = 1;
      for (let i = 0; i < n; i++) {
        active[i] = dots[i]! < 1 ? 1 : 0;
        if (!active[i]) continue;
        const xi = 1 - dots[i]!;
        const row = i * dim;
        for (let j = 0; j < dim; j++) {
          const uj = u[row + j]!;
          g[j]! -= c * xi * uj;
          const scaled = c * uj;
          for (let k = 0; k <= j; k++) h[j * dim + k]! += scaled * u[row + k]!;
        }
      }
      let gradient2 = 0;
      for (let j = 0; j < dim; j++) gradient2 += g[j]! * g[j]!;
      if (!(gradient2 > 0)) return;
      if (!choleskySolve(h, dim, g, s)) return;
      // s = −H⁻¹g; a full step minimises the quadratic on A, and ends the solve when A is then unchanged.
      let slope = 0;
      for (let j = 0; j < dim; j++) {
        s[j] = -s[j]!;
        slope += g[j]! * s[j]!;
      }
      if (!(slope < 0)) return;
      let tau = 1;
      let trialValue = Infinity;
      for (let halvings = 0; halvings < 60; halvings++, tau /= 2) {
        for (let j = 0; j < dim; j++) this.#trial[j] = w[j]! + tau * s[j]!;
        trialValue = this.#objective(c, this.#trial, this.#steps);
        if (trialValue <= value + 1e-4 * tau * slope) break;
      }
      if (!(trialValue < value)) return;
      w.set(this.#trial);
      dots.set(this.#steps);
      value = trialValue;
      let same = tau === 1;
      for (let i = 0; i < n && same; i++) same = (dots[i]! < 1 ? 1 : 0) === active[i];
      if (same) return;
    }
  }
}

/**
 * Solves H x = b for the symmetric positive definite H (its lower triangle, row-major dim × dim, overwritten
 * by its Cholesky factor). False when H is not numerically positive definite.
 */
function choleskySolve(h: Float64Array, dim: number, b: Float64Array, x: Float64Array): boolean {
  for (let j = 0; j < dim; j++) {
    let diagonal = h[j * dim + j]!;
    for (let k = 0; k < j; k++) diagonal -= h[j * dim + k]! * h[j * dim + k]!;
    if (!(diagonal > 0)) return false;
    const root = Math.sqrt(diagonal);
    h[j * dim + j] = root;
    for (let i = j + 1; i < dim; i++) {
      let sum = h[i * dim + j]!;
      for (let k = 0; k < j; k++) sum -= h[i * dim + k]! * h[j * dim + k]!;
      h[i * dim + j] = sum / root;
    }
  }
  for (let i = 0; i < dim; i++) {
    let sum = b[i]!;
    for (let k = 0; k < i; k++) sum -= h[i * dim + k]! * x[k]!;
    x[i] = sum / h[i * dim + i]!;
  }
  for (let i = dim - 1; i >= 0; i--) {
    let sum = x[i]!;
    for (let k = i + 1; k < dim; k++) sum -= h[k * dim + i]! * x[k]!;
    x[i] = sum / h[i * dim + i]!;
  }
  return true;
}
