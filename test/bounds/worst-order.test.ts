import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { updatesFrom, worstOrder } from "../../src/bounds/worst-order.js";
import { updatesFromChecked } from "../../src/bounds/updates-from.js";
import type { LearnerData } from "../../src/perceptron/learner-data.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createRandom, type Uniform } from "../../src/random/seeded-random.js";
import { learnerOf } from "../helpers.js";
import { generateThreePoint } from "../../src/generators/three-point.js";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { createDraws } from "../../src/random/random-draws.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";

/**
 * The longest order by brute force: every sequence of updates on mistaken points, no memo, no cut, ŵ summed
 * in the sequence's own order and every margin a fresh dot product, as the perceptron computes them. Returns
 * W* and one order that reaches it; null where it would visit more than `limit` sequences.
 */
function bruteForce(data: LearnerData, eta: number, w0: Float64Array, limit: number): { best: number; order: number[] } | null {
  const { n, dim, u } = data;
  let visited = 0;
  let best = -1;
  let bestOrder: number[] = [];
  const path: number[] = [];
  const walk = (w: Float64Array): boolean => {
    if (++visited > limit) return false;
    let any = false;
    for (let i = 0; i < n; i++) {
      let dot = 0;
      for (let l = 0; l < dim; l++) dot += w[l]! * u[i * dim + l]!;
      if (dot > 0) continue;
      any = true;
      const next = Float64Array.from(w, (value, l) => value + eta * u[i * dim + l]!);
      path.push(i);
      const ok = walk(next);
      path.pop();
      if (!ok) return false;
    }
    if (!any && path.length > best) {
      best = path.length;
      bestOrder = [...path];
    }
    return true;
  };
  return walk(Float64Array.from(w0)) ? { best, order: bestOrder } : null;
}

/** The plain perceptron presented `order` first (each must be a mistake), then cyclic epochs until clean: its updates. */
function replay(data: LearnerData, eta: number, w0: Float64Array, order: Int32Array): { updates: number; allMistakes: boolean } {
  const { n, dim, u } = data;
  const w = Float64Array.from(w0);
  let updates = 0;
  let allMistakes = true;
  const present = (i: number): boolean => {
    let dot = 0;
    for (let l = 0; l < dim; l++) dot += w[l]! * u[i * dim + l]!;
    if (dot > 0) return false;
    for (let l = 0; l < dim; l++) w[l]! += eta * u[i * dim + l]!;
    updates++;
    return true;
  };
  for (const i of order) if (!present(i)) allMistakes = false;
  for (let epoch = 0; epoch < 10_000; epoch++) {
    let mistakes = 0;
    for (let i = 0; i < n; i++) if (present(i)) mistakes++;
    if (mistakes === 0) break;
  }
  return { updates, allMistakes };
}

/** n learner vectors in `dim` dimensions on the positive side of a random v, each with v̂·u ≥ margin·‖u‖ (roughly). */
function randomInstance(random: Uniform, n: number, dim: number, margin: number): { data: LearnerData; v: Float64Array } {
  const normal = () => Math.sqrt(-2 * Math.log(1 - random())) * Math.cos(2 * Math.PI * random());
  const v = Float64Array.from({ length: dim }, normal);
  const norm = Math.hypot(...v);
  const rows: number[][] = [];
  while (rows.length < n) {
    const x = Array.from({ length: dim }, normal);
    const along = x.reduce((s, value, l) => s + value * v[l]!, 0) / norm;
    if (Math.abs(along) < margin * Math.hypot(...x)) continue;
    rows.push(along > 0 ? x : x.map((value) => -value));
  }
  return { data: learnerOf(rows), v };
}

describe("the worst order over presentation orders (docs/theory.md, The worst order)", () => {
  it("equals a brute force over every order on 200 random instances (n ≤ 6), and its order replays to exactly W* updates", () => {
    const random = createRandom(2026, "data");
    let compared = 0;
    let attempts = 0;
    while (compared < 200) {
      attempts++;
      expect(attempts).toBeLessThan(2000);
      const n = 2 + Math.floor(random() * 5);
      const dim = 2 + Math.floor(random() * 2);
      const { data, v } = randomInstance(random, n, dim, 0.15 + 0.3 * random());
      const eta = [1, 0.5, 2][Math.floor(random() * 3)]!;
      const w0 = random() < 0.5 ? new Float64Array(dim) : Float64Array.from({ length: dim }, () => random() - 0.5);
      const brute = bruteForce(data, eta, w0, 200_000);
      if (brute === null) continue;
      compared++;
      // Each phase alone must reach W*: the depth-first search (the whole budget its own) and the best-first
      // search (none of it to the depth-first one), as well as the two together.
      const separators = [v, maxMarginSeparator(data).separator ?? null];
      for (const depthFirstBudget of [undefined, 1_000_000, 0]) {
        const found = worstOrder(data, { eta, initialWeights: w0, separators, budget: 1_000_000, ...(depthFirstBudget === undefined ? {} : { depthFirstBudget }) })!;
        const which = `instance ${compared}: n ${n}, dim ${dim}, η ${eta}, depth-first budget ${depthFirstBudget}`;
        expect(found.status, which).toBe("exact");
        expect(found.lower, which).toBe(brute.best);
        expect(found.upper, which).toBe(brute.best);
        expect(replay(data, eta, w0, found.order), which).toEqual({ updates: brute.best, allMistakes: true });
      }
      // The brute force's own order, replayed, reaches W* too (the replay is a fair judge).
      expect(replay(data, eta, w0, Int32Array.from(brute.order)).updates).toBe(brute.best);
    }
  });

  it("is at least every order the perceptron runs and at most every bound, on planted-like data", () => {
    const random = createRandom(7, "data");
    for (let trial = 0; trial < 30; trial++) {
      const { data, v } = randomInstance(random, 12, 3, 0.1);
      const w0 = new Float64Array(3);
      const optimal = maxMarginSeparator(data).separator!;
      const found = worstOrder(data, { eta: 1, initialWeights: w0, separators: [v, optimal] })!;
      expect(found.lower).toBeLessThanOrEqual(found.upper);
      const cyclic = trainPerceptron(data, { eta: 1, initialWeights: w0, order: "cyclic", maxEpochs: 10_000 });
      expect(found.lower).toBeGreaterThanOrEqual(cyclic.updates);
      for (let seed = 0; seed < 5; seed++) {
        const shuffled = trainPerceptron(data, { eta: 1, initialWeights: w0, order: "shuffle", maxEpochs: 10_000, random: createRandom(seed, "order") });
        expect(found.lower).toBeGreaterThanOrEqual(shuffled.updates);
      }
      for (const separator of [v, optimal]) {
        const { bounds } = computeBounds(data, separator, 1, w0);
        for (const value of Object.values(bounds)) if (value !== null) expect(found.upper).toBeLessThanOrEqual(Math.floor(value));
      }
    }
  });

  it("makes exactly n updates in every order on orthonormal data, whatever the budget", () => {
    for (const n of [1, 4, 9]) {
      const rows = Array.from({ length: n }, (_, i) => Array.from({ length: n }, (_, j) => (i === j ? 1 : 0)));
      const data = learnerOf(rows);
      const v = new Float64Array(n).fill(1);
      for (const budget of [1, 10, 1_000_000]) {
        const found = worstOrder(data, { eta: 1, initialWeights: new Float64Array(n), separators: [v], budget })!;
        expect(found).toMatchObject({ status: "exact", lower: n, upper: n });
      }
    }
  });

  it("makes exactly n updates in every order on Hadamard data (with bias, random labels), whatever the budget", () => {
    for (const n of [2, 4, 8, 16]) {
      const data = generateHadamard(n, createRandom(n, "data"));
      const learner = toLearnerCoordinates(data, true);
      for (const budget of [1, 1_000_000]) {
        const found = worstOrder(learner, { eta: 1, initialWeights: new Float64Array(n), separators: [plantedSeparator(data, true)], budget })!;
        expect(found, `n ${n}, budget ${budget}`).toMatchObject({ status: "exact", lower: n, upper: n });
      }
    }
  });

  it("gives a bracket, lower ≤ upper with its order replayed to `lower`, when the budget runs out", () => {
    const random = createRandom(11, "data");
    const { data, v } = randomInstance(random, 20, 4, 0.02);
    const w0 = new Float64Array(4);
    const found = worstOrder(data, { eta: 1, initialWeights: w0, separators: [v], budget: 50 })!;
    expect(found.status).toBe("bracket");
    expect(found.lower).toBeLessThan(found.upper);
    expect(found.nodes).toBeLessThanOrEqual(50);
    expect(replay(data, 1, w0, found.order)).toEqual({ updates: found.lower, allMistakes: true });
  });

  it("on three-point data, is the cyclic order's 1 + ⌊c²/2⌋: no order is worse (docs/theory.md), past the depth-first phase's depth limit too", () => {
    for (const c of [2, 3, 5, 10, 30]) {
      const data = generateThreePoint(c);
      const learner = toLearnerCoordinates(data, true);
      const found = worstOrder(learner, { eta: 1, initialWeights: new Float64Array(2), separators: [plantedSeparator(data, true)] })!;
      expect(found).toMatchObject({ status: "exact", lower: 1 + Math.floor((c * c) / 2), upper: 1 + Math.floor((c * c) / 2) });
    }
    // c = 100: W* = 5 001 is deeper than the depth-first phase recurses (MAX_WORST_ORDER_DEPTH); the best-first
    // phase, which does not recurse, proves it. With no budget for that phase, the bracket stands.
    const data = generateThreePoint(100);
    const learner = toLearnerCoordinates(data, true);
    const separators = [plantedSeparator(data, true)];
    const deep = worstOrder(learner, { eta: 1, initialWeights: new Float64Array(2), separators })!;
    expect(deep).toMatchObject({ status: "exact", lower: 5001, upper: 5001 });
    expect(replay(learner, 1, new Float64Array(2), deep.order)).toEqual({ updates: 5001, allMistakes: true });
    const cut = worstOrder(learner, { eta: 1, initialWeights: new Float64Array(2), separators, budget: 1_000, depthFirstBudget: 1_000 })!;
    expect(cut.status).toBe("bracket");
    expect(cut.lower).toBe(5001);
    expect(cut.upper).toBeGreaterThan(5001);
    expect(cut.upper).toBeLessThanOrEqual(10_001);
  });

  it("lowers a bracket's proved upper end as its budget grows, never below W*, and keeps the depth-first phase's longest order", () => {
    // Planted data where the search needs ~45 000 states (n 10, d 5, margin 0.1, seed 1002): W* from a large
    // budget, then brackets at smaller ones. The best-first phase's upper end is the largest promise left, so it
    // can only fall as the budget grows (the same expansions, in the same order, then more).
    const planted = generatePlanted({ n: 10, d: 5, margin: 0.1, radius: 1, offset: 0 }, createDraws(1002, "data", 3));
    const data = toLearnerCoordinates(planted, true);
    const w0 = new Float64Array(data.dim);
    const separators = [plantedSeparator(planted, true), maxMarginSeparator(data).separator ?? null];
    const full = worstOrder(data, { eta: 1, initialWeights: w0, separators, budget: 1_000_000 })!;
    expect(full.status).toBe("exact");
    const root = worstOrder(data, { eta: 1, initialWeights: w0, separators, budget: 1 })!;
    let previous = root.upper;
    let brackets = 0;
    for (const budget of [2_000, 5_000, 10_000, 20_000]) {
      const found = worstOrder(data, { eta: 1, initialWeights: w0, separators, budget, depthFirstBudget: 1_000 })!;
      expect(found.nodes).toBeLessThanOrEqual(budget);
      expect(found.lower).toBeLessThanOrEqual(full.lower);
      expect(found.upper).toBeGreaterThanOrEqual(full.lower);
      expect(found.upper).toBeLessThanOrEqual(previous);
      expect(replay(data, 1, w0, found.order)).toEqual({ updates: found.lower, allMistakes: true });
      if (found.status === "bracket") brackets++;
      previous = found.upper;
    }
    expect(brackets).toBeGreaterThan(0);
    expect(previous).toBeLessThan(root.upper);
  });

  it("is null where no separator is proved to separate", () => {
    const data = learnerOf([[1, 0], [-1, 0]]);
    expect(worstOrder(data, { eta: 1, initialWeights: new Float64Array(2), separators: [Float64Array.of(1, 0), null] })).toBeNull();
  });

  it("bounds the updates still to come as Novikoff does from ŵ(0) = 0, and never below the exact root", () => {
    // From A = 0, s = 0: k ≤ ‖v‖²M/g² = (R/γ)².
    expect(updatesFrom(0, 0, 0.5, 1, 4)).toBe(16);
    expect(updatesFrom(0, 0, 0.3, 1, 1)).toBe(Math.floor(1 / 0.09));
    // An integer root (16: P(16) = 0 exactly) stays in; the float candidate's check falls back where it cannot prove.
    expect(updatesFromChecked(0, 0, 0.5, 1, 4)).toBe(16);
    expect(updatesFromChecked(0, 0, 0.3, 1, 1)).toBe(Math.floor(1 / 0.09));
    expect(updatesFromChecked(-3, 9, 0.5, 1, 4)).toBe(updatesFrom(-3, 9, 0.5, 1, 4));
    // A random sample against the root in exact-enough arithmetic (bigint-free: a 1e-12 relative check).
    const random = createRandom(3, "data");
    for (let k = 0; k < 1000; k++) {
      const [A, s, g, norm, M] = [random() * 4 - 2, random() * 4, 0.05 + random(), 0.5 + random(), 0.5 + random()];
      const S = Math.max(s, (A * A) / norm);
      const L = norm * M - 2 * A * g;
      const root = (L + Math.sqrt(L * L + 4 * g * g * (norm * S - A * A))) / (2 * g * g);
      expect(updatesFrom(A, S, g, norm, M)).toBeGreaterThanOrEqual(Math.floor(root * (1 - 1e-12)));
      expect(updatesFrom(A, S, g, norm, M)).toBeLessThanOrEqual(Math.floor(root * (1 + 1e-12)) + 1);
      // The checked float root the search uses: never below the root, never above updatesFrom.
      expect(updatesFromChecked(A, S, g, norm, M)).toBeGreaterThanOrEqual(Math.floor(root * (1 - 1e-12)));
      expect(updatesFromChecked(A, S, g, norm, M)).toBeLessThanOrEqual(updatesFrom(A, S, g, norm, M));
    }
  });
});
