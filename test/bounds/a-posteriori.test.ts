import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { resolveBounds } from "../../src/bounds/bound-choice.js";
import { freundSchapireBound } from "../../src/bounds/freund-schapire.js";
import { mistakeSetBound } from "../../src/bounds/mistake-set.js";
import { proofFactors } from "../../src/bounds/proof-factors.js";
import { separatorMargin, withinScale } from "../../src/bounds/separator-margin.js";
import { tightestFreundSchapire } from "../../src/bounds/squared-hinge-path.js";
import { updateRounds } from "../../src/bounds/update-rounds.js";
import { A_POSTERIORI_COLUMNS } from "../../src/run/run-columns.js";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { plantedSeparator, toLearnerCoordinates, type LearnerData } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { runPerceptron } from "../../src/perceptron/perceptron-kernel.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { anyRunRatio, executeRun, ratio } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { runSpec } from "../helpers.js";
import { exactDot, Rational } from "../math/exact-rational.js";

const exact = Rational.fromFloat;

/**
 * The mistake-set bound of docs/theory.md at v = scale·direction in exact rational arithmetic, from the same
 * float64 inputs: the reported value B must satisfy B ≥ L(v) + (‖v‖√T − v·ŵ(0))/η, T = ‖ŵ(0)‖² + η²S_M, i.e.
 * X = η(B − L) + v·ŵ(0) ≥ 0 and X² ≥ ‖v‖²·T.
 */
function expectAtOrAboveExact(data: LearnerData, counts: Int32Array, direction: Float64Array, scale: number, eta: number, init: Float64Array, reported: number): void {
  const { n, dim, u } = data;
  const s = exact(scale);
  let hinge = Rational.of(0n);
  let squares = Rational.of(0n);
  for (let i = 0; i < n; i++) {
    if (counts[i] === 0) continue;
    const c = Rational.of(BigInt(counts[i]!));
    const slack = Rational.of(1n).sub(s.mul(exactDot(direction, 0, u, i * dim, dim)));
    if (slack.sign() > 0) hinge = hinge.add(c.mul(slack));
    squares = squares.add(c.mul(exactDot(u, i * dim, u, i * dim, dim)));
  }
  const e = exact(eta);
  const normSquare = s.mul(s).mul(exactDot(direction, 0, direction, 0, dim));
  const t = exactDot(init, 0, init, 0, dim).add(e.mul(e).mul(squares));
  const x = e.mul(exact(reported).sub(hinge)).add(s.mul(exactDot(direction, 0, init, 0, dim)));
  expect(x.sign()).toBeGreaterThanOrEqual(0);
  expect(x.mul(x).compare(normSquare.mul(t))).toBeGreaterThanOrEqual(0);
}

/** ‖W‖² ≤ S_M in exact arithmetic, W = Σ c_i u_i: the proof's interference step (C ≥ 1) on the run that happened. */
function interferenceHolds(data: LearnerData, counts: Int32Array): boolean {
  const { n, dim, u } = data;
  let squares = Rational.of(0n);
  const sum: Rational[] = Array.from({ length: dim }, () => Rational.of(0n));
  for (let i = 0; i < n; i++) {
    if (counts[i] === 0) continue;
    const c = Rational.of(BigInt(counts[i]!));
    squares = squares.add(c.mul(exactDot(u, i * dim, u, i * dim, dim)));
    for (let j = 0; j < dim; j++) sum[j] = sum[j]!.add(c.mul(exact(u[i * dim + j]!)));
  }
  const norm = sum.reduce((total, value) => total.add(value.mul(value)), Rational.of(0n));
  return norm.compare(squares) <= 0;
}

const cases = fc.record({
  seed: fc.integer({ min: 1, max: 1e6 }),
  n: fc.integer({ min: 2, max: 40 }),
  d: fc.integer({ min: 1, max: 6 }),
  margin: fc.constantFrom(0.3, 0.05, 1e-3),
  noise: fc.constantFrom(0, 0, 0.1),
  bias: fc.boolean(),
  eta: fc.constantFrom(1, 0.37, 1e-3, 250),
  init: fc.constantFrom("zero", "zero", "small", "large"),
  order: fc.constantFrom("cyclic", "shuffle"),
});

describe("the a-posteriori columns: the proof's four factors and the mistake-set bounds", () => {
  it("every mistake-set bound is at or above its exact value and the run's updates, for separators, Freund–Schapire optima and random v", () => {
    fc.assert(
      fc.property(cases, (p) => {
        const offset = p.bias ? 0.2 * (1 - p.margin) : 0;
        const data = generatePlanted({ n: p.n, d: p.d, margin: p.margin, radius: 1, offset, noise: p.noise }, createRandom(p.seed, "data"));
        const learner = toLearnerCoordinates(data, p.bias);
        const random = createRandom(p.seed, "init");
        const init = Float64Array.from({ length: learner.dim }, () => (p.init === "zero" ? 0 : (p.init === "small" ? 0.01 : 10) * (random() - 0.5)));
        const counts = new Int32Array(learner.n);
        const result = trainPerceptron(learner, { eta: p.eta, initialWeights: init, order: p.order, maxEpochs: 30, random: createRandom(p.seed, "order"), counts });
        const rounds = updateRounds(learner, counts);
        expect(rounds.updates).toBe(result.updates);
        const planted = plantedSeparator(data, p.bias)!;
        const candidates: [Float64Array, number][] = [
          [planted, 0],
          [planted, 1 / Math.max(1e-3, Math.abs(separatorMargin(learner, planted).a.lo))],
          [Float64Array.from({ length: learner.dim }, () => random() - 0.5), 10 * random()],
        ];
        if (init.every((value) => value === 0)) candidates.push([tightestFreundSchapire(learner, result.epochs, [planted]).w, 1]);
        for (const [direction, scale] of candidates) {
          const bound = mistakeSetBound(learner, rounds, direction, scale, p.eta, init);
          expect(bound).toBeGreaterThanOrEqual(result.updates * (1 - 1e-12));
          expectAtOrAboveExact(learner, counts, direction, scale, p.eta, init, bound);
        }
        // The interference step holds for the exact sum of the rounds the float64 run made (where it is a step of the proof).
        if (init.every((value) => value === 0)) expect(interferenceHolds(learner, counts)).toBe(true);
      }),
      { numRuns: 120 },
    );
  });

  it("stays finite and at or above its exact value at extreme scales: η = 1e150, a radius of 1e150 with an offset", () => {
    // 0.12.2 formed η²·S_M before dividing by η (∞ at η = 1e150 with S_M ≈ 1e10: an empty cell), and paired the
    // planted separator of data near 1e150, unscaled, with the rescaled one's margin (5e305 for ~1e151).
    const data = generatePlanted({ n: 30, d: 3, margin: 1e4, radius: 1e5, offset: 0 }, createRandom(4, "data"));
    const learner = toLearnerCoordinates(data, false);
    const init = Float64Array.of(0.3, -0.2, 0.5);
    for (const eta of [1e150, 1e-150]) {
      const counts = new Int32Array(learner.n);
      trainPerceptron(learner, { eta, initialWeights: init, order: "cyclic", maxEpochs: 1000, counts });
      const rounds = updateRounds(learner, counts);
      const planted = plantedSeparator(data, false)!;
      const scale = 1 / separatorMargin(learner, planted).a.lo;
      const value = mistakeSetBound(learner, rounds, planted, scale, eta, init);
      expect(Number.isFinite(value), `eta ${eta}`).toBe(true);
      expect(value).toBeGreaterThanOrEqual(rounds.updates);
      expectAtOrAboveExact(learner, counts, planted, scale, eta, init, value);
    }
    const spec = runSpec({ n: 20, d: 2, margin: 1e149, radius: 1e150, offset: 3e149, seed: 7, bounds: resolveBounds(["default", "mistakeSet"]) });
    const row = executeRun(spec) as unknown as Record<string, number | null>;
    expect(row.status).toBe("ok");
    // From ŵ(0) = 0 at v = ŵ*/a: MS = √S_M/γ, S_M ≤ k·R² (R ≈ 1e150 with the bias coordinate), γ the planted margin.
    const bound = row.plantedMistakeSetBound!;
    expect(bound).toBeGreaterThanOrEqual(row.updates!);
    expect(bound).toBeLessThanOrEqual((Math.sqrt(row.updates!) * row.learnerRadius!) / row.plantedMargin! * (1 + 1e-9));
    expect(row.plantedMistakeSetRatio).toBe(row.updates! / bound);
  });

  it("writes no ratio for a bound beyond float64 (written empty), rather than updates/∞ = 0", () => {
    // 0.12.2 wrote 0 for updates/∞ (81 cells of an audit), and the zeros entered the summaries as perfectly tight bounds.
    expect(ratio(10, true, Infinity)).toBeNull();
    expect(anyRunRatio(10, Infinity)).toBeNull();
    expect(ratio(10, true, 40)).toBe(0.25);
    expect(ratio(10, false, 40)).toBeNull();
    expect(anyRunRatio(10, 40)).toBe(0.25);
    expect(anyRunRatio(10, 0)).toBeNull();
    expect(anyRunRatio(10, null)).toBeNull();
  });

  it("at the tightest Freund–Schapire optimum it is at most that bound (docs/theory.md: MS(u/γ) ≤ FS(u, γ, E))", () => {
    for (let seed = 1; seed <= 20; seed++) {
      const data = generatePlanted({ n: 60, d: 3, margin: 0.05, radius: 1, offset: 0.1, noise: 0.1 }, createRandom(seed, "data"));
      const learner = toLearnerCoordinates(data, true);
      const counts = new Int32Array(learner.n);
      const zero = new Float64Array(learner.dim);
      const result = runPerceptron(learner, { eta: 1, initialWeights: zero, order: "shuffle", maxEpochs: 7, random: createRandom(seed, "order"), counts });
      const fs = tightestFreundSchapire(learner, result.epochs, [plantedSeparator(data, true)!]);
      const ms = mistakeSetBound(learner, updateRounds(learner, counts), fs.w, 1, 1, zero);
      expect(result.updates).toBeLessThanOrEqual(ms);
      expect(ms).toBeLessThanOrEqual(freundSchapireBound(learner, fs.w, result.epochs) * (1 + 1e-12));
    }
  });

  it("the four factors are each ≥ 1 and their product squared is (R/γ)²/k; on Hadamard data every one is exactly 1", () => {
    fc.assert(
      fc.property(cases, (p) => {
        const data = generatePlanted({ n: p.n, d: p.d, margin: p.margin, radius: 1, offset: p.bias ? 0.1 : 0 }, createRandom(p.seed, "data"));
        const learner = toLearnerCoordinates(data, p.bias);
        const counts = new Int32Array(learner.n);
        const zero = new Float64Array(learner.dim);
        const result = trainPerceptron(learner, { eta: p.eta, initialWeights: zero, order: p.order, maxEpochs: 1000, random: createRandom(p.seed, "order"), counts });
        const planted = plantedSeparator(data, p.bias)!;
        const { margin } = separatorMargin(learner, planted);
        const factors = proofFactors(learner, updateRounds(learner, counts), planted, margin, true);
        if (result.updates === 0) return expect(factors).toBeNull();
        const values = [factors!.gain, factors!.alignment, factors!.interference, factors!.radius];
        // A, B and D are upper ends of enclosures of values ≥ 1: never below 1, not even by an ulp.
        for (const value of [values[0]!, values[1]!, values[3]!]) expect(value).toBeGreaterThanOrEqual(1);
        expect(values[2]!).toBeGreaterThanOrEqual(1 - 1e-12);
        const product = values.reduce((a, b) => a * b) ** 2;
        const novikoff = learner.radiusSquared / (margin * margin) / result.updates;
        expect(Math.abs(product / novikoff - 1)).toBeLessThan(1e-12);
      }),
      { numRuns: 120 },
    );
    // At radius 1e-150 (squares near float64's subnormals) and 1e150: the same, scale-free (0.12.2 wrote
    // 0.99999996 for A, B or D at 1e-150).
    for (const radius of [1e-150, 1e150]) {
      // Without a bias: with one, the bias coordinate (1) would set the learner's radius, not the data's.
      const data = generatePlanted({ n: 40, d: 3, margin: 0.05 * radius, radius, offset: 0 }, createRandom(9, "data"));
      const learner = toLearnerCoordinates(data, false);
      const counts = new Int32Array(learner.n);
      trainPerceptron(learner, { eta: 1, initialWeights: new Float64Array(learner.dim), order: "cyclic", maxEpochs: 10_000, counts });
      const planted = withinScale(plantedSeparator(data, false)!);
      const { margin } = separatorMargin(learner, planted);
      const factors = proofFactors(learner, updateRounds(learner, counts), planted, margin, true)!;
      for (const value of [factors.gain, factors.alignment, factors.radius]) expect(value, `radius ${radius}`).toBeGreaterThanOrEqual(1);
      const product = (factors.gain * factors.alignment * factors.interference * factors.radius) ** 2;
      expect(Math.abs(product / (learner.radiusSquared / (margin * margin) / counts.reduce((a, b) => a + b)) - 1), `radius ${radius}`).toBeLessThan(1e-9);
    }
    // Hadamard (n = 16): every point updated once, W = Σ u_i with orthogonal rows, ‖W‖² = S_M = k·R²: C = D = 1,
    // and with the separator (1, …, 1)·u direction, A = B = 1: the bound is met exactly, as docs/theory.md says.
    const learner = toLearnerCoordinates(generateHadamard(16, createRandom(2, "data")), true);
    const counts = new Int32Array(16);
    trainPerceptron(learner, { eta: 1, initialWeights: new Float64Array(16), order: "cyclic", maxEpochs: 10, counts });
    const rounds = updateRounds(learner, counts);
    expect(Array.from(counts)).toEqual(new Array(16).fill(1));
    const separator = rounds.sum;
    const factors = proofFactors(learner, rounds, separator, separatorMargin(learner, separator).margin, true)!;
    // Exactly 1 in exact arithmetic; the enclosures' upper ends are within a few ulps above.
    for (const value of [factors.gain, factors.alignment, factors.interference, factors.radius]) {
      expect(value).toBeGreaterThanOrEqual(1);
      expect(value).toBeLessThan(1 + 1e-14);
    }
  });

  it("are computed only where listed, change no other column, and hold the chain updates ≤ MS ≤ Novikoff (separable) and MS ≤ FS (noisy)", () => {
    const specs: Partial<RunSpec>[] = [
      { seed: 1 },
      { seed: 2, init: "normal:1", offset: 0.3 },
      { seed: 3, order: "shuffle", eta: 0.1 },
      { seed: 4, noise: 0.05, maxEpochs: 50 },
      { seed: 5, overlap: 0.05, maxEpochs: 50 },
      { seed: 6, generator: "three-point", c: 3, n: 3, d: 1, margin: null, radius: null, offset: null, noise: null, overlap: null },
    ];
    let planted = 0;
    let tightest = 0;
    for (const spec of specs) {
      const lean = executeRun(runSpec({ ...spec, bounds: "default" })) as unknown as Record<string, number | null>;
      const row = executeRun(runSpec({ ...spec, bounds: resolveBounds(["default", "factors", "mistakeSet"]) })) as unknown as Record<string, number | null>;
      const aPosteriori = new Set<string>(A_POSTERIORI_COLUMNS);
      for (const [column, value] of Object.entries(lean)) {
        if (aPosteriori.has(column)) expect(value, column).toBeNull();
        else expect(row[column], column).toEqual(value);
      }
      const updates = row.updates!;
      for (const separator of ["planted", "optimal", "tightest"]) {
        const ms = row[`${separator}MistakeSetBound`] ?? null;
        if (ms === null) continue;
        expect(updates).toBeLessThanOrEqual(ms);
        if (separator === "tightest") {
          tightest++;
          expect(ms).toBeLessThanOrEqual(row.tightestFreundSchapireBound! * (1 + 1e-12));
        } else if (row[`${separator}NovikoffBound`] !== null) {
          expect(ms).toBeLessThanOrEqual(row[`${separator}NovikoffBound`]! * (1 + 1e-12));
        }
        if (separator === "planted") planted++;
      }
      if (spec.init === undefined && updates > 0 && row.plantedMargin! > 0) expect(row.plantedGainFactor).toBeGreaterThanOrEqual(1);
      expect(row.violations).toBe(lean.violations);
    }
    expect([planted, tightest]).toEqual([6, 2]);
  });
});
