import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { learnerOf } from "../helpers.js";

describe("computeBounds, by hand", () => {
  it("u = e₁, ŵ(0) = −0.5 e₁, η = 0.01 (docs/theory.md, bound 3): Hu uses ŵ(0)/η", () => {
    // ŵ* = e₁: γ = 1, R = 1, v = −50 e₁. Hu: a_H = (1 + 1)/2 = 1, D = ‖−50 e₁ − e₁‖ = 51, D² = 2601
    // (the unscaled ‖ŵ(0) − a_H ŵ*‖² = 2.25 would not be a bound on 50 updates).
    // Snapp: μ = −1, k_max = (0.01·1 + 1)/(0.01·1) = 101. N(v): p = −50, B = 1 + 100 = 101,
    // ‖v‖² − p² = 0, N = 2·101/2 = 101. Novikoff does not apply (ŵ(0) ≠ 0).
    const { bounds, margin } = computeBounds(learnerOf([[1]]), Float64Array.of(1), 0.01, Float64Array.of(-0.5));
    expect(margin).toBe(1);
    expect(bounds.novikoff).toBeNull();
    expect(bounds.hu).toBeCloseTo(2601, 9);
    expect(bounds.snapp).toBeCloseTo(101, 9);
    expect(bounds.optimised).toBeCloseTo(101, 9);
    expect(bounds.best).toBeCloseTo(101, 9);
  });

  it("is free of the separator's scale", () => {
    const learner = learnerOf([[1, 2], [2, -1], [3, 0.5]]);
    const init = Float64Array.of(0.3, -0.2);
    const unit = computeBounds(learner, Float64Array.of(0.8, 0.6), 2, init);
    const scaled = computeBounds(learner, Float64Array.of(8, 6), 2, init);
    expect(scaled.margin).toBeCloseTo(unit.margin, 14);
    for (const name of ["snapp", "hu", "optimised"] as const) expect(scaled.bounds[name]).toBeCloseTo(unit.bounds[name]!, 9);
  });

  it("gives Snapp k = 0 when ŵ(0) already separates (μ > 0)", () => {
    const { bounds } = computeBounds(learnerOf([[1, 0], [0, 1]]), Float64Array.of(1, 1), 1, Float64Array.of(10, 10));
    expect(bounds.snapp).toBe(0);
    expect(bounds.best).toBe(0);
  });

  it("gives no bound for a vector that does not separate", () => {
    const { bounds, margin } = computeBounds(learnerOf([[1, 0], [-1, 1]]), Float64Array.of(1, 0), 1, new Float64Array(2));
    expect(margin).toBe(-1);
    expect(bounds).toEqual({ novikoff: null, snapp: null, hu: null, optimised: null, best: null });
  });

  it("at ŵ(0) = 0: Snapp = N(0) = (R/γ)², Hu = (R² + 1)²/(4γ²)", () => {
    // u = (3, 4), (4, 3); ŵ = (1, 1): a = 7, S = 2, γ = 7/√2, M = 25: (R/γ)² = 25·2/49 = 50/49.
    const { bounds } = computeBounds(learnerOf([[3, 4], [4, 3]]), Float64Array.of(1, 1), 1, new Float64Array(2));
    expect(bounds.novikoff).toBeCloseTo(50 / 49, 14);
    expect(bounds.snapp).toBeCloseTo(50 / 49, 14);
    expect(bounds.optimised).toBeCloseTo(50 / 49, 14);
    expect(bounds.hu).toBeCloseTo((26 * 26 * 2) / (4 * 49), 12);
  });
});

describe("computeBounds, properties", () => {
  const vector = (dim: number) => fc.array(fc.double({ min: -5, max: 5, noNaN: true }), { minLength: dim, maxLength: dim });
  /** A unit separator ŝ and points u = t ŝ + r (r ⊥ ŝ, t ≥ 0.05): separated by construction. */
  const instance = fc.integer({ min: 1, max: 5 }).chain((dim) =>
    fc.record({
      direction: vector(dim).filter((values) => Math.hypot(...values) > 0.1),
      points: fc.array(fc.tuple(fc.double({ min: 0.05, max: 5, noNaN: true }), vector(dim)), { minLength: 1, maxLength: 8 }),
      init: vector(dim),
      eta: fc.double({ min: 1e-3, max: 1e3, noNaN: true }),
    }),
  );

  /** Hu's argument for one constant a > R²/(2γ) (docs/theory.md, bound 4), with unit ŵ*. */
  function huForA(a: number, m: number, gamma: number, vNorm2: number, p: number): number {
    return (vNorm2 - 2 * a * p + a * a) / (2 * a * gamma - m);
  }

  it("N(v) is the minimum over a of Hu's argument, and Hu's D² is that argument at a_H", () => {
    fc.assert(
      fc.property(instance, ({ direction, points, init, eta }) => {
        const norm = Math.hypot(...direction);
        const unit = direction.map((value) => value / norm);
        const vectors = points.map(([t, r]) => {
          const along = r.reduce((sum, value, j) => sum + value * unit[j]!, 0);
          return r.map((value, j) => value - along * unit[j]! + t * unit[j]!);
        });
        const learner = learnerOf(vectors);
        const { bounds, margin: gamma } = computeBounds(learner, Float64Array.from(direction), eta, Float64Array.from(init));
        const m = learner.radiusSquared;
        const v = init.map((value) => value / eta);
        const vNorm2 = v.reduce((sum, value) => sum + value * value, 0);
        const p = v.reduce((sum, value, j) => sum + value * unit[j]!, 0);
        const aH = (m + 1) / (2 * gamma);
        const huAtAH = huForA(aH, m, gamma, vNorm2, p);
        expect(Math.abs(bounds.hu! - huAtAH)).toBeLessThanOrEqual(1e-7 * Math.max(1, huAtAH));
        // Scan a over (R²/(2γ), ∞), log-spaced offsets 1e-8 to 1e8: no a gives less than N(v), the
        // analytic minimiser gives N(v), and N(v) ≤ D² (a_H is one such a).
        const lowest = m / (2 * gamma);
        let best = Infinity;
        for (let e = -8; e <= 8; e += 0.002) best = Math.min(best, huForA(lowest + 10 ** e, m, gamma, vNorm2, p));
        expect(bounds.optimised!).toBeLessThanOrEqual(best * (1 + 1e-9));
        // The minimiser solves γa² − R²a + pR² − γ‖v‖² = 0 (derivative of Hu's argument in a), larger root.
        const aStar = (m + Math.sqrt(m * m - 4 * gamma * (p * m - gamma * vNorm2))) / (2 * gamma);
        expect(Math.abs(bounds.optimised! - huForA(aStar, m, gamma, vNorm2, p))).toBeLessThanOrEqual(1e-7 * Math.max(1, bounds.optimised!));
        expect(bounds.optimised!).toBeLessThanOrEqual(bounds.hu! * (1 + 1e-9));
      }),
      { numRuns: 300 },
    );
  });

  it("at ŵ(0) = 0, Hu's D² ≥ (R/γ)², with equality iff R = 1", () => {
    fc.assert(
      fc.property(fc.double({ min: 0.01, max: 100, noNaN: true }), fc.double({ min: 0.001, max: 1, noNaN: true }), (radius, share) => {
        // One point u = (γ, √(R² − γ²)) and ŵ* = e₁: margin γ = share·R, radius R.
        const gamma = share * radius;
        const u = [gamma, Math.sqrt(Math.max(0, radius * radius - gamma * gamma))];
        const { bounds } = computeBounds(learnerOf([u]), Float64Array.of(1, 0), 1, new Float64Array(2));
        expect(bounds.hu!).toBeGreaterThanOrEqual(bounds.novikoff! * (1 - 1e-12));
        // D² − (R/γ)² = (R² − 1)²/(4γ²), up to rounding relative to D².
        const m = u[0]! ** 2 + u[1]! ** 2;
        const gap = (m - 1) ** 2 / (4 * gamma * gamma);
        expect(Math.abs(bounds.hu! - bounds.novikoff! - gap)).toBeLessThanOrEqual(1e-9 * bounds.hu!);
      }),
    );
    const { bounds } = computeBounds(learnerOf([[0.6, 0.8]]), Float64Array.of(1, 0), 1, new Float64Array(2));
    expect(bounds.hu).toBeCloseTo(bounds.novikoff!, 12);
  });
});
