import { createRequire } from "node:module";
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { freundSchapireAlong, freundSchapireBound, freundSchapireRoot } from "../../src/bounds/freund-schapire.js";
import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { SquaredHingeSolver, tightestFreundSchapire } from "../../src/bounds/squared-hinge-path.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { dotEnclosure, gamma, maxRowSquare } from "../../src/math/dot-enclosure.js";
import { addUp, mulUp, nextDown, nextUp, sqrtUp, subDown, subUp, TINY as TINY_NORMAL } from "../../src/math/outward-rounding.js";
import { toLearnerCoordinates, type LearnerData } from "../../src/perceptron/learner-coordinates.js";
import { createDraws } from "../../src/random/random-draws.js";
import { executeRun } from "../../src/run/execute-run.js";
import { learnerOf, runSpec } from "../helpers.js";

const { solveQP } = createRequire(import.meta.url)("quadprog") as { solveQP: (...args: unknown[]) => { solution: number[]; message: string } };

/** FS(u, γ, E) = ((R + √E·D₁)/γ)² straight from docs/theory.md's definition, for a unit u, in float64. */
function fsByDefinition(data: LearnerData, u: readonly number[], gamma: number, epochs: number): number {
  let deviations = 0;
  for (let i = 0; i < data.n; i++) {
    let margin = 0;
    for (let j = 0; j < data.dim; j++) margin += u[j]! * data.u[i * data.dim + j]!;
    deviations += Math.max(0, gamma - margin) ** 2;
  }
  return ((Math.sqrt(data.radiusSquared) + Math.sqrt(epochs * deviations)) / gamma) ** 2;
}

/** freundSchapireBound as it was before it skipped points beyond the margin: every point's outward steps. */
function everyPointBound(data: LearnerData, w: Float64Array, epochs: number): number {
  const { n, dim, u } = data;
  const radius = sqrtUp(maxRowSquare(u, n, dim).hi);
  const norm = sqrtUp(dotEnclosure(w, 0, w, 0, dim).hi);
  const relative = gamma(dim + 2);
  let deviations = 0;
  for (let i = 0; i < n; i++) {
    let dot = 0;
    let absolute = 0;
    for (let j = 0; j < dim; j++) {
      const product = w[j]! * u[i * dim + j]!;
      dot += product;
      absolute += Math.abs(product);
    }
    const xi = subUp(1, subDown(dot, nextUp(relative * absolute + dim * 2 * TINY_NORMAL)));
    if (xi > 0) deviations = addUp(deviations, mulUp(xi, xi));
  }
  const root = addUp(mulUp(radius, norm), mulUp(sqrtUp(epochs), sqrtUp(deviations)));
  return mulUp(root, root);
}

/** Noisy planted data in the learner's coordinates. */
function noisyLearner(seed: number, n: number, d: number, noise: number, overlap = 0): LearnerData {
  const data = generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0, noise, overlap }, createDraws(seed, "data", 2));
  return toLearnerCoordinates(data, true);
}

/** A tiny 2-D data set (u_i given directly), not separable: two points point against the rest. */
const TINY = learnerOf([
  [1, 0.2],
  [0.8, -0.3],
  [0.9, 0.6],
  [-0.5, -0.1],
  [0.4, 0.9],
  [0.2, -0.7],
]);

describe("the Freund–Schapire bound (docs/theory.md, Beyond separable data)", () => {
  it("equals (R/γ*)² at the max-margin u with γ = γ* on separable data, at any E (D₁ = 0)", () => {
    for (const seed of [1, 2, 3]) {
      const data = noisyLearner(seed, 60, 4, 0);
      const separator = maxMarginSeparator(data).separator!;
      let least = Infinity;
      for (let i = 0; i < data.n; i++) least = Math.min(least, separator.reduce((sum, value, j) => sum + value * data.u[i * data.dim + j]!, 0));
      // w = ŵ*/min ŵ*·u_i: u = ŵ*/‖ŵ*‖, γ = 1/‖w‖ = γ*.
      const w = separator.map((value) => value / least);
      const novikoff = computeBounds(data, separator, 1, new Float64Array(data.dim)).bounds.novikoff!;
      for (const epochs of [1, 7, 1000]) {
        const bound = freundSchapireBound(data, w, epochs);
        expect(Math.abs(bound / novikoff - 1)).toBeLessThan(1e-12);
      }
    }
  });

  it("is ((R + √E·D₁)/γ)² of its definition, and never below it (rounded outward)", () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 30 }), fc.double({ min: 0.05, max: 20, noNaN: true }), fc.integer({ min: 1, max: 50 }), (seed, scale, epochs) => {
        const data = noisyLearner(seed, 30, 3, 0.2);
        const w = Float64Array.from({ length: data.dim }, (_, j) => scale * Math.cos(seed + 3 * j));
        const norm = Math.hypot(...w);
        const exact = fsByDefinition(data, Array.from(w, (value) => value / norm), 1 / norm, epochs);
        const bound = freundSchapireBound(data, w, epochs);
        expect(bound).toBeGreaterThanOrEqual(exact * (1 - 1e-15));
        expect(bound / exact - 1).toBeLessThan(1e-12);
      }),
      { numRuns: 100 },
    );
  });

  it("skips the points beyond the margin without changing a bit: the same bound as every point's outward steps", () => {
    // w scaled so that some point's w·u_i is 1 give or take a few ulps, where the skip test decides.
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 2 ** 30 }), fc.integer({ min: 0, max: 29 }), fc.integer({ min: -4, max: 4 }), fc.constantFrom(0, 0.2), (seed, pivot, ulps, noise) => {
        const data = noisyLearner(seed, 30, 3, noise);
        const direction = Float64Array.from({ length: data.dim }, (_, j) => Math.cos(seed + 3 * j));
        let dot = 0;
        for (let j = 0; j < data.dim; j++) dot += direction[j]! * data.u[pivot * data.dim + j]!;
        let scale = 1 / Math.abs(dot);
        for (let k = 0; k < Math.abs(ulps); k++) scale = ulps > 0 ? nextUp(scale) : nextDown(scale);
        const w = direction.map((value) => value * scale);
        for (const epochs of [1, 9]) expect(freundSchapireBound(data, w, epochs)).toBe(everyPointBound(data, w, epochs));
      }),
      { numRuns: 300 },
    );
  });

  it("along a direction, finds the best γ: no γ of a fine grid does better (brute force, tiny data)", () => {
    for (const angle of [0, 0.3, 1, 2.5]) {
      const u = [Math.cos(angle), Math.sin(angle)];
      for (const epochs of [1, 3, 10]) {
        const found = freundSchapireAlong(TINY, u, epochs).bound;
        let grid = TINY.n * epochs; // γ → ∞ (w = 0): the trivial n mistakes an epoch
        for (let k = 0; k <= 4000; k++) grid = Math.min(grid, fsByDefinition(TINY, u, 10 ** (-4 + (8 * k) / 4000), epochs));
        expect(found).toBeLessThanOrEqual(grid * (1 + 1e-9));
        expect(found).toBeGreaterThanOrEqual(grid * (1 - 1e-3));
      }
    }
  });

  it("along a direction, its exact piecewise solution is what a bisection on g' finds, to the last bits (noisy planted data)", () => {
    // The reference: g'(t) = R − √E Σ ξ_i m_i / ‖ξ‖ bisected to 1e-15 (how 0.6 found t), then the same outward evaluation.
    const bisected = (data: LearnerData, direction: Float64Array, epochs: number): number => {
      let norm = 0;
      for (const value of direction) norm += value * value;
      const unit = direction.map((value) => value / Math.sqrt(norm));
      const m = Array.from({ length: data.n }, (_, i) => unit.reduce((sum, value, j) => sum + value * data.u[i * data.dim + j]!, 0));
      const slope = (t: number) => {
        let weighted = 0;
        let squares = 0;
        for (const mi of m) if (1 - t * mi > 0) (weighted += (1 - t * mi) * mi), (squares += (1 - t * mi) ** 2);
        return squares > 0 ? Math.sqrt(data.radiusSquared) - (Math.sqrt(epochs) * weighted) / Math.sqrt(squares) : Math.sqrt(data.radiusSquared);
      };
      const positive = m.filter((value) => value > 0);
      if (positive.length === 0 || !(slope(0) < 0)) return freundSchapireBound(data, new Float64Array(data.dim), epochs);
      let lo = 0;
      let hi = 1 / Math.min(...positive);
      while (hi - lo > hi * 1e-15) {
        const mid = lo + (hi - lo) / 2;
        if (slope(mid) < 0) lo = mid;
        else hi = mid;
      }
      return freundSchapireBound(data, unit.map((value) => value * hi), epochs);
    };
    for (let seed = 1; seed <= 60; seed++) {
      const data = noisyLearner(seed, 20 + seed * 3, 2 + (seed % 9), (seed % 5) * 0.05, (seed % 3) * 0.05);
      const direction = new Float64Array(data.dim).map((_, j) => Math.cos(seed * 1.7 + j));
      for (const epochs of [1, 7, 200]) {
        const exact = freundSchapireAlong(data, direction, epochs).bound;
        const reference = bisected(data, direction, epochs);
        expect(Math.abs(exact / reference - 1)).toBeLessThan(1e-14);
      }
    }
  });

  it("over every (u, γ), is no worse than a brute-force grid over the circle and γ (tiny data)", () => {
    for (const epochs of [1, 4, 20]) {
      const found = tightestFreundSchapire(TINY, epochs, [null]).bound;
      let grid = TINY.n * epochs;
      for (let a = 0; a < 3600; a++) {
        const u = [Math.cos((2 * Math.PI * a) / 3600), Math.sin((2 * Math.PI * a) / 3600)];
        for (let k = 0; k <= 300; k++) grid = Math.min(grid, fsByDefinition(TINY, u, 10 ** (-3 + (5 * k) / 300), epochs));
      }
      expect(found).toBeLessThanOrEqual(grid * (1 + 1e-9));
      // The grid's step in angle and γ leaves it at most a little above the true minimum.
      expect(found).toBeGreaterThanOrEqual(grid * (1 - 1e-2));
    }
  });

  it("the squared-hinge SVM solved by finite Newton steps is quadprog's solution of the QP", () => {
    const data = noisyLearner(5, 15, 2, 0.25);
    const { n, dim, u } = data;
    const solver = new SquaredHingeSolver(data);
    for (const c of [0.01, 1, 100, 1e5]) {
      const w = new Float64Array(dim);
      solver.solve(c, w);
      // The QP over (w, ξ): min ½‖w‖² + (C/2)‖ξ‖² s.t. w·u_i + ξ_i ≥ 1, quadprog's 1-based layout.
      const size = dim + n;
      const dmat = [[], ...Array.from({ length: size }, (_, a) => [0, ...Array.from({ length: size }, (_, b) => (a === b ? (a < dim ? 1 : c) : 0))])];
      const amat = [[], ...Array.from({ length: size }, (_, a) => [0, ...Array.from({ length: n }, (_, i) => (a < dim ? u[i * dim + a]! : a - dim === i ? 1 : 0))])];
      const result = solveQP(dmat, new Array(size + 1).fill(0), amat, [0, ...new Array(n).fill(1)]);
      expect(result.message).toBe("");
      const reference = result.solution.slice(1, dim + 1);
      const scale = Math.max(...reference.map(Math.abs));
      for (let j = 0; j < dim; j++) expect(Math.abs(w[j]! - reference[j]!)).toBeLessThan(1e-8 * scale);
    }
  });

  it("over every (u, γ), is a minimum: √FS rises in every direction around the w found (convex, so global)", () => {
    for (const seed of [11, 12, 13]) {
      const data = noisyLearner(seed, 40, 3, 0.15);
      const epochs = 5;
      const radius = Math.sqrt(data.radiusSquared);
      const { w } = tightestFreundSchapire(data, epochs, [null]);
      const at = freundSchapireRoot(data, w, epochs, radius);
      const norm = Math.hypot(...w);
      for (let k = 0; k < 200; k++) {
        const step = Float64Array.from(w, (_, j) => Math.sin(7 * k + 13 * j + seed) * norm * 1e-3);
        const moved = Float64Array.from(w, (value, j) => value + step[j]!);
        expect(freundSchapireRoot(data, moved, epochs, radius)).toBeGreaterThanOrEqual(at * (1 - 1e-9));
      }
      // And a grid over C with quadprog-independent solves finds nothing smaller.
      const solver = new SquaredHingeSolver(data);
      const v = new Float64Array(data.dim);
      for (let k = 0; k <= 400; k++) {
        solver.solve(10 ** (-4 + (12 * k) / 400), v);
        expect(freundSchapireRoot(data, v, epochs, radius)).toBeGreaterThanOrEqual(at * (1 - 1e-9));
      }
    }
  });

  it("no run exceeds it, at any epoch count: noisy and overlapping planted data, cyclic and shuffled (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 0, max: 2 ** 40 }),
          n: fc.integer({ min: 2, max: 40 }),
          d: fc.integer({ min: 1, max: 6 }),
          noise: fc.constantFrom(0, 0.05, 0.2, 0.5),
          overlap: fc.constantFrom(0, 0.1, 0.5),
          order: fc.constantFrom("cyclic" as const, "shuffle" as const),
          maxEpochs: fc.integer({ min: 1, max: 12 }),
        }),
        (params) => {
          const row = executeRun(runSpec({ ...params, margin: 0.1, dataVersion: 2 }));
          expect(row).toMatchObject({ status: "ok", violations: 0 });
          expect(row.updates!).toBeLessThanOrEqual(row.tightestFreundSchapireBound!);
          expect(row.tightestFreundSchapireBound!).toBeLessThanOrEqual(row.plantedFreundSchapireBound!);
          expect(row.pocketErrors!).toBeLessThanOrEqual(row.finalErrors!);
          expect(row.lastEpochMistakes === 0).toBe(row.converged);
        },
      ),
      { numRuns: 150 },
    );
  });
});
