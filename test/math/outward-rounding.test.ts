import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { minRowDot } from "../../src/bounds/min-row-dot.js";
import { dotEnclosure, maxRowSquare } from "../../src/math/dot-enclosure.js";
import { addDown, addUp, divDown, divUp, mulDown, mulUp, nextDown, nextUp, sqrtDown, sqrtUp, subDown, subUp } from "../../src/math/outward-rounding.js";
import { exactDot, Rational } from "./exact-rational.js";

/** Doubles of every scale: subnormal, tiny, ordinary, huge; and small integers (exact cases). */
const anyDouble = fc.oneof(
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e300, max: 1e300 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -1e-300, max: 1e-300 }),
  fc.double({ noNaN: true, noDefaultInfinity: true, min: -10, max: 10 }),
  fc.integer({ min: -1000, max: 1000 }),
);

/** Inside the range where the error-free transformations are exact (outward-rounding.ts), or 0. */
const inRange = (...values: number[]) => values.every((value) => value === 0 || (Math.abs(value) >= 1e-260 && Math.abs(value) <= 1e290));

/**
 * Checks that `got` lies on the side of the exact value `exact` that its rounding promises, and that it is
 * fl(exact) or the next float64 beyond it; equal to fl(exact) when that is exact and the operands are in range.
 */
function checkRounded(got: number, exact: Rational, side: "up" | "down", nearest: number, operands: readonly number[]): void {
  if (!Number.isFinite(got)) return;
  const order = Rational.fromFloat(got).compare(exact);
  if (side === "up") expect(order).toBeGreaterThanOrEqual(0);
  else expect(order).toBeLessThanOrEqual(0);
  if (Number.isFinite(nearest) && inRange(...operands, nearest) && Rational.fromFloat(nearest).compare(exact) === 0) expect(got).toBe(nearest);
  if (Number.isFinite(nearest)) expect([nearest, side === "up" ? nextUp(nearest) : nextDown(nearest)]).toContain(got);
}

describe("outward rounding", () => {
  it("steps to the neighbouring float64", () => {
    expect(nextUp(1)).toBe(1 + 2 ** -52);
    expect(nextDown(1)).toBe(1 - 2 ** -53);
    expect(nextUp(0)).toBe(Number.MIN_VALUE);
    expect(nextDown(0)).toBe(-Number.MIN_VALUE);
    expect(nextUp(-Number.MIN_VALUE)).toBe(-0);
    expect(nextUp(Number.MAX_VALUE)).toBe(Infinity);
    expect(nextUp(2 ** 32 - 2 ** -20)).toBeGreaterThan(2 ** 32 - 2 ** -20); // a carry out of the low word
  });

  it("rounds +, −, ×, ÷ and √ to the right side of the exact result, and keeps exact results exact", () => {
    fc.assert(
      fc.property(anyDouble, anyDouble, (a, b) => {
        const [x, y] = [Rational.fromFloat(a), Rational.fromFloat(b)];
        checkRounded(addUp(a, b), x.add(y), "up", a + b, [a, b]);
        checkRounded(addDown(a, b), x.add(y), "down", a + b, [a, b]);
        checkRounded(subUp(a, b), x.sub(y), "up", a - b, [a, b]);
        checkRounded(subDown(a, b), x.sub(y), "down", a - b, [a, b]);
        checkRounded(mulUp(a, b), x.mul(y), "up", a * b, [a, b]);
        checkRounded(mulDown(a, b), x.mul(y), "down", a * b, [a, b]);
        if (b !== 0) {
          checkRounded(divUp(a, b), x.div(y), "up", a / b, [a, b]);
          checkRounded(divDown(a, b), x.div(y), "down", a / b, [a, b]);
        }
        const r = Math.abs(a);
        const root = sqrtUp(r);
        if (Number.isFinite(root)) expect(Rational.fromFloat(root).mul(Rational.fromFloat(root)).compare(Rational.fromFloat(r))).toBeGreaterThanOrEqual(0);
        const low = sqrtDown(r);
        expect(Rational.fromFloat(low).mul(Rational.fromFloat(low)).compare(Rational.fromFloat(r))).toBeLessThanOrEqual(0);
      }),
      { numRuns: 1500 },
    );
  });

  it("leaves exact operations exact: 3·7, 1/4, √16, 0.1 + 0.2 is not exact", () => {
    expect([mulUp(3, 7), mulDown(3, 7), divUp(1, 4), divDown(1, 4), sqrtUp(16), sqrtDown(16)]).toEqual([21, 21, 0.25, 0.25, 4, 4]);
    expect(addUp(0.1, 0.2)).toBe(0.30000000000000004); // fl(0.1 + 0.2) is above the exact sum
    expect(addDown(0.1, 0.2)).toBe(0.3);
    expect(divUp(1, 3)).toBe(nextUp(1 / 3)); // 1/3 rounds down to nearest
    expect(divDown(1, 3)).toBe(1 / 3);
  });
});

describe("dot enclosures", () => {
  const vectors = fc.integer({ min: 1, max: 24 }).chain((length) =>
    fc.tuple(fc.array(anyDouble, { minLength: length, maxLength: length }), fc.array(anyDouble, { minLength: length, maxLength: length })),
  );

  it("hold the exact dot product, and collapse to it when the plain sum is exact", () => {
    fc.assert(
      fc.property(vectors, ([x, y]) => {
        const enclosure = dotEnclosure(x, 0, y, 0, x.length);
        if (!Number.isFinite(enclosure.lo) || !Number.isFinite(enclosure.hi)) return;
        const exact = exactDot(x, 0, y, 0, x.length);
        expect(Rational.fromFloat(enclosure.lo).compare(exact)).toBeLessThanOrEqual(0);
        expect(Rational.fromFloat(enclosure.hi).compare(exact)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 800 },
    );
    expect(dotEnclosure([1, -1, 1, 1], 0, [1, 1, -1, 1], 0, 4)).toEqual({ lo: 0, hi: 0 });
  });

  it("are tight where cancellation ruins the plain sum: a margin 1e-6 of the radius", () => {
    // x·y = 1e-6 exactly from terms of size 1: the plain sum errs by ~1e-16 absolute, 1e-10 relative.
    const x = [1, 1e-6, -1, 0.1, -0.1];
    const y = [1 + 2 ** -30, 1, 1, 3, 3];
    const exact = exactDot(x, 0, y, 0, 5);
    const { lo, hi } = dotEnclosure(x, 0, y, 0, 5);
    const width = Rational.fromFloat(hi).sub(Rational.fromFloat(lo));
    expect(Rational.fromFloat(lo).compare(exact)).toBeLessThanOrEqual(0);
    expect(Rational.fromFloat(hi).compare(exact)).toBeGreaterThanOrEqual(0);
    // Two ulps of the value (ulp(1e-6) ≈ 2.1e-22), as tight as two float64 ends can be: Dot2's own error
    // bound 2γ_6²·Σ|x y| is ~5e-30; the plain sum's a-priori bound γ_6·Σ|x y| would be ~2e-15.
    expect(width.compare(Rational.fromFloat(5e-22))).toBeLessThan(0);
  });

  it("find the minimum over rows and the largest squared norm, also among ties", () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 8 }), fc.integer({ min: 1, max: 6 }), fc.integer({ min: 0, max: 1000 }), (n, dim, seed) => {
        // Values from a few choices, so that rows tie often.
        const choices = [0.1, -0.3, 1, 2.5e-8, -7, 3];
        const u = Float64Array.from({ length: n * dim }, (_, k) => choices[(seed * 31 + k * 17 + ((k * k) % 5)) % choices.length]!);
        const w = Float64Array.from({ length: dim }, (_, j) => choices[(seed + j * 7) % choices.length]!);
        const dots = Array.from({ length: n }, (_, i) => exactDot(w, 0, u, i * dim, dim));
        const squares = Array.from({ length: n }, (_, i) => exactDot(u, i * dim, u, i * dim, dim));
        const least = dots.reduce((a, b) => (a.compare(b) <= 0 ? a : b));
        const most = squares.reduce((a, b) => (a.compare(b) >= 0 ? a : b));
        // The scale: ‖w‖·max‖u_i‖ bounds every Σ|w_j u_ij| (Cauchy–Schwarz); a little over it, as callers round up.
        const norm = (x: Float64Array, from: number) => Math.sqrt(x.subarray(from, from + dim).reduce((sum, v) => sum + v * v, 0));
        const scale = norm(w, 0) * Math.max(...Array.from({ length: n }, (_, i) => norm(u, i * dim))) * (1 + 1e-12);
        const min = minRowDot(u, n, dim, w, scale);
        const max = maxRowSquare(u, n, dim);
        expect(Rational.fromFloat(min.lo).compare(least)).toBeLessThanOrEqual(0);
        expect(Rational.fromFloat(min.hi).compare(least)).toBeGreaterThanOrEqual(0);
        expect(Rational.fromFloat(max.lo).compare(most)).toBeLessThanOrEqual(0);
        expect(Rational.fromFloat(max.hi).compare(most)).toBeGreaterThanOrEqual(0);
      }),
      { numRuns: 500 },
    );
  });
});
