import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { plantedSeparator, toLearnerCoordinates, type LearnerData } from "../../src/perceptron/learner-coordinates.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { exactDot, Rational } from "../math/exact-rational.js";

const exact = Rational.fromFloat;
const [ZERO, ONE, TWO, FOUR] = [0n, 1n, 2n, 4n].map((value) => Rational.of(value)) as [Rational, Rational, Rational, Rational];

/**
 * The bounds of docs/theory.md in exact rational arithmetic (the formulas of computeBounds, from the same float64
 * inputs): every reported bound must be at or above its exact value, every margin at or below.
 */
function checkAgainstExact(data: LearnerData, separator: Float64Array, eta: number, init: Float64Array): void {
  const { n, dim, u } = data;
  const reported = computeBounds(data, separator, eta, init);
  const s = exactDot(separator, 0, separator, 0, dim);
  const dots = Array.from({ length: n }, (_, i) => exactDot(separator, 0, u, i * dim, dim));
  const a = dots.reduce((x, y) => (x.compare(y) <= 0 ? x : y));
  const m = Array.from({ length: n }, (_, i) => exactDot(u, i * dim, u, i * dim, dim)).reduce((x, y) => (x.compare(y) >= 0 ? x : y));
  // The margin's lower end: margin ≤ a/√S, i.e. margin² S ≤ a² where both are positive.
  if (reported.margin > 0) {
    expect(a.sign()).toBe(1);
    expect(exact(reported.margin).mul(exact(reported.margin)).mul(s).compare(a.mul(a))).toBeLessThanOrEqual(0);
  }
  // A negative margin (a separator that does not separate) is rounded down too: margin ≤ a/√S < 0, i.e.
  // margin² S ≥ a² (a plain division rounded it up by up to 1.3e-16 on noisy data).
  if (reported.margin < 0 && a.sign() < 0) {
    expect(exact(reported.margin).mul(exact(reported.margin)).mul(s).compare(a.mul(a))).toBeGreaterThanOrEqual(0);
  }
  const bounds = reported.bounds;
  if (bounds.best === null) return;
  expect(a.sign()).toBe(1); // bounds only from a proven separator
  const a2 = a.mul(a);
  const zeroInit = init.every((value) => value === 0);
  const e = exact(eta);
  if (zeroInit) expect(exact(bounds.novikoff!).compare(m.mul(s).div(a2))).toBeGreaterThanOrEqual(0);
  else expect(bounds.novikoff).toBeNull();

  const minInit = Array.from({ length: n }, (_, i) => exactDot(init, 0, u, i * dim, dim)).reduce((x, y) => (x.compare(y) <= 0 ? x : y));
  const snappFactor = m.sub(TWO.mul(minInit).div(e));
  const snapp = snappFactor.sign() <= 0 ? ZERO : snappFactor.mul(s).div(a2);
  expect(exact(bounds.snapp!).compare(snapp)).toBeGreaterThanOrEqual(0);

  const c = m.add(ONE).div(TWO.mul(a));
  let hu = ZERO;
  for (let j = 0; j < dim; j++) {
    const difference = exact(init[j]!).div(e).sub(c.mul(exact(separator[j]!)));
    hu = hu.add(difference.mul(difference));
  }
  expect(exact(bounds.hu!).compare(hu)).toBeGreaterThanOrEqual(0);

  // N(v) = (B + √(B² + X))·S/(2a²): reported ≥ exact ⇔ L = reported·2a²/S − B ≥ 0 and L² ≥ B² + X.
  const q = exactDot(separator, 0, init, 0, dim).div(e);
  const vNorm2 = exactDot(init, 0, init, 0, dim).div(e.mul(e));
  const b = m.sub(TWO.mul(a).mul(q).div(s));
  const x = FOUR.mul(a2).mul(vNorm2.sub(q.mul(q).div(s))).div(s);
  const l = exact(bounds.optimised!).mul(TWO).mul(a2).div(s).sub(b);
  expect(l.sign()).toBeGreaterThanOrEqual(0);
  expect(l.mul(l).compare(b.mul(b).add(x))).toBeGreaterThanOrEqual(0);
}

describe("bounds that rounding can only make larger", () => {
  const cases = fc.record({
    seed: fc.integer({ min: 1, max: 1e6 }),
    n: fc.integer({ min: 2, max: 30 }),
    d: fc.integer({ min: 1, max: 6 }),
    // Down to a millionth of the radius, where a plain dot product loses ~10 digits to cancellation.
    margin: fc.constantFrom(0.3, 0.05, 1e-3, 1e-6),
    bias: fc.boolean(),
    eta: fc.constantFrom(1, 0.37, 1e-3, 250),
    init: fc.constantFrom("zero", "small", "large"),
    tilt: fc.constantFrom(0, 1e-9, 1e-3),
  });

  it("holds every bound at or above its exact value, every margin at or below, on planted data", () => {
    fc.assert(
      fc.property(cases, (p) => {
        const offset = p.bias ? 0.2 * (1 - p.margin) : 0;
        const data = generatePlanted({ n: p.n, d: p.d, margin: p.margin, radius: 1, offset }, createRandom(p.seed, "data"));
        const learner = toLearnerCoordinates(data, p.bias);
        const planted = plantedSeparator(data, p.bias)!;
        const random = createRandom(p.seed, "init");
        // The planted separator, a tilted copy of it (which may no longer separate), and the max-margin one.
        const tilted = planted.map((value) => value + p.tilt * (random() - 0.5));
        const init = Float64Array.from({ length: learner.dim }, () => (p.init === "zero" ? 0 : (p.init === "small" ? 0.01 : 10) * (random() - 0.5)));
        const separators = [planted, tilted];
        const optimal = maxMarginSeparator(learner, { separating: planted });
        if (optimal.separator !== null) separators.push(optimal.separator);
        // Every bound depends on the separator's direction only: the same checks at scales far from 1 (a QP's
        // vector on data near 1e±150 is that far; M·S overflowed there, and an underflowed γ² made a bound negative).
        for (const factor of [1e-100, 2 ** -300, 1e120]) separators.push(planted.map((value) => value * factor));
        for (const separator of separators) checkAgainstExact(learner, separator, p.eta, init);
      }),
      { numRuns: 150 },
    );
  });

  it("gives the structured families their exact bounds: ŵ(0) = 0 on orthonormal data makes (R/γ)² = n", () => {
    // u_i = e_i (n = 5): ŵ = (1, …, 1) has a = 1, S = 5, M = 1: every bound exactly 5, Hu's (M+1)²S/(4a²) = 5.
    const n = 5;
    const u = new Float64Array(n * n);
    for (let i = 0; i < n; i++) u[i * n + i] = 1;
    const bounds = computeBounds({ n, dim: n, u, radiusSquared: 1 }, new Float64Array(n).fill(1), 1, new Float64Array(n)).bounds;
    expect(bounds).toEqual({ novikoff: 5, snapp: 5, hu: 5, optimised: 5, best: 5 });
  });
});
