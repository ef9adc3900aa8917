import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { computeBounds } from "../../src/bounds/convergence-bounds.js";
import { MAX_MARGIN_LIMITS, maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { generateHadamard } from "../../src/generators/hadamard.js";
import { generateOrthonormal } from "../../src/generators/orthonormal.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { generateThreePoint } from "../../src/generators/three-point.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { dataSetOf } from "../helpers.js";

const zero = (dim: number) => new Float64Array(dim);

describe("maxMarginSeparator, by hand", () => {
  it("penalises the bias: x = 3 (+1), x = 1 (−1) has γ* = 1/√5, not the unpenalised 1", () => {
    // u = (3, 1), (−1, −1). min w² + b² s.t. 3w + b ≥ 1, −w − b ≥ 1: both active, w = 1, b = −2,
    // multipliers 1.5 and 3.5 (KKT), ‖ŵ‖² = 5, γ* = 1/√5. An SVM with a free bias would put the
    // boundary at 2 with margin 1: a different, wrong margin for the bounds (docs/theory.md).
    const result = maxMarginSeparator(toLearnerCoordinates(dataSetOf([[3], [1]], [1, -1]), true));
    expect(result.status).toBe("optimal");
    expect(result.margin).toBeCloseTo(1 / Math.sqrt(5), 14);
    const [w, b] = result.separator!;
    expect(b! / w!).toBeCloseTo(-2, 12);
  });

  it("finds the origin-free separator without a bias", () => {
    // u = 2 and 2 (x = 2 labelled +1, x = −2 labelled −1): ŵ = 1/2, γ* = 2.
    const result = maxMarginSeparator(toLearnerCoordinates(dataSetOf([[2], [-2]], [1, -1]), false));
    expect(result).toMatchObject({ status: "optimal", margin: 2 });
  });

  it("never calls separable data of very different coordinate scales infeasible (a feature of 1e-150 beside the bias)", () => {
    // x = 1e-150 (+1), 5e-151 (−1), with a bias: w = 1, b = −7.5e-151 separates with margin 2.5e-151 (‖ŵ‖ = 1
    // to float64), the largest there is; 0.12.2 said "infeasible", "not linearly separable".
    const learner = toLearnerCoordinates(dataSetOf([[1e-150], [5e-151]], [1, -1]), true);
    const result = maxMarginSeparator(learner);
    expect(result.status).toBe("inexact");
    expect(result.margin! / 2.5e-151).toBeGreaterThan(1 - 1e-9);
    expect(result.margin! / 2.5e-151).toBeLessThan(1 + 1e-9);
    expect(result.message).toContain("a separator was found with each coordinate rescaled");
  });

  it("reports non-separable data as infeasible", () => {
    const result = maxMarginSeparator(toLearnerCoordinates(dataSetOf([[1], [1]], [1, -1]), true));
    expect(result).toMatchObject({ status: "infeasible", separator: null, margin: null });
    expect(result.message).toBe("the QP is infeasible: the data are not linearly separable in the learner's coordinates");
  });

  it("does not attempt a problem above its size limits, and says so", () => {
    const dim = MAX_MARGIN_LIMITS.dim + 1;
    const result = maxMarginSeparator({ n: 1, dim, u: new Float64Array(dim).fill(1), radiusSquared: dim });
    expect(result.status).toBe("too-large");
    expect(result.message).toContain("above what the dense QP solver takes");
  });

  it("is exact on the structured families: (R/γ*)² = n, 1 + c²", () => {
    for (const n of [1, 2, 5, 16]) {
      const learner = toLearnerCoordinates(generateOrthonormal(n, createRandom(n, "data")), false);
      const result = maxMarginSeparator(learner);
      expect(computeBounds(learner, result.separator!, 1, zero(n)).bounds.novikoff).toBe(n);
    }
    for (const n of [2, 4, 32, 128]) {
      const learner = toLearnerCoordinates(generateHadamard(n, createRandom(n, "data")), true);
      const result = maxMarginSeparator(learner);
      expect(result.margin).toBe(1);
      expect(computeBounds(learner, result.separator!, 1, zero(n)).bounds.novikoff).toBe(n);
    }
    const three = toLearnerCoordinates(generateThreePoint(10), true);
    expect(computeBounds(three, maxMarginSeparator(three).separator!, 1, zero(2)).bounds.novikoff).toBe(101);
  });

  it("keeps its certificate honest: the margin lies between the achieved and the dual's upper bound", () => {
    const data = generatePlanted({ n: 300, d: 20, margin: 0.05, radius: 1, offset: 0.4 }, createRandom(11, "data"));
    const learner = toLearnerCoordinates(data, true);
    const result = maxMarginSeparator(learner);
    expect(result.status).toBe("optimal");
    expect(result.marginUpperBound!).toBeGreaterThanOrEqual(result.margin!);
    expect(result.marginUpperBound! - result.margin!).toBeLessThanOrEqual(1e-6 * result.margin!);
    // With an offset the planted separator is not the max-margin one: γ* > γ̂.
    const planted = computeBounds(learner, plantedSeparator(data, true)!, 1, zero(21)).margin;
    expect(result.margin!).toBeGreaterThan(planted);
  });
});

describe("maxMarginSeparator, properties", () => {
  /**
   * Random data sets built from planted ones and then made awkward: scaled by 10^k for k in [−6, 6],
   * rows duplicated, rounded to integers (ties, sometimes no longer separable), with or without bias.
   */
  const awkward = fc.record({
    seed: fc.integer({ min: 0, max: 2 ** 40 }),
    n: fc.integer({ min: 2, max: 40 }),
    d: fc.integer({ min: 1, max: 8 }),
    margin: fc.double({ min: 0.01, max: 0.4, noNaN: true }),
    offset: fc.double({ min: -0.5, max: 0.5, noNaN: true }),
    bias: fc.boolean(),
    exponent: fc.integer({ min: -6, max: 6 }),
    duplicates: fc.integer({ min: 0, max: 5 }),
    integer: fc.boolean(),
  });

  it("finds a margin at least the planted γ̂, or says why not (1e-6 to 1e6, duplicates, integer data)", () => {
    const failures: string[] = [];
    fc.assert(
      fc.property(awkward, (p) => {
        const offset = p.bias ? p.offset : 0;
        const base = generatePlanted({ n: p.n, d: p.d, margin: p.margin, radius: 1, offset }, createRandom(p.seed, "data"));
        const scale = 10 ** p.exponent;
        const rows = Array.from({ length: base.n }, (_, i) => Array.from(base.x.subarray(i * p.d, (i + 1) * p.d), (v) => v * scale));
        const labels = Array.from(base.y);
        for (let k = 0; k < p.duplicates; k++) {
          rows.push([...rows[k % base.n]!]);
          labels.push(labels[k % base.n]!);
        }
        const values = p.integer ? rows.map((row) => row.map((v) => Math.round(v * 4))) : rows;
        const planted = p.integer ? null : { w: base.planted!.w, b: base.planted!.b * scale };
        const data = dataSetOf(values, labels, planted);
        const learner = toLearnerCoordinates(data, p.bias);
        // The planted separator, when it survives the transformation, is the certificate of separability.
        const known = planted === null ? undefined : plantedSeparator(data, p.bias)!;
        const result = maxMarginSeparator(learner, known === undefined ? {} : { separating: known });
        if (result.status === "infeasible") {
          expect(p.integer).toBe(true);
          return;
        }
        if (result.status === "failed") {
          // Only where the margin is tiny against the radius: never a wrong number, a stated failure.
          const plantedMargin = computeBounds(learner, known!, 1, zero(learner.dim)).margin;
          expect(plantedMargin / Math.sqrt(learner.radiusSquared)).toBeLessThan(1e-6);
          failures.push(result.message!);
          return;
        }
        expect(["optimal", "inexact"]).toContain(result.status);
        // The reported margin is the recomputed one of a vector that truly separates, and the
        // certificate brackets the true maximum.
        const check = computeBounds(learner, result.separator!, 1, zero(learner.dim));
        expect(check.margin).toBe(result.margin);
        expect(result.margin!).toBeGreaterThan(0);
        expect(result.marginUpperBound!).toBeGreaterThanOrEqual(result.margin!);
        if (known !== undefined) {
          const plantedMargin = computeBounds(learner, known, 1, zero(learner.dim)).margin;
          // "optimal" promises γ* within 1e-6; "inexact" promises only that γ* ≤ marginUpperBound.
          if (result.status === "optimal") expect(result.margin!).toBeGreaterThanOrEqual(plantedMargin * (1 - 1e-6));
          else expect(result.marginUpperBound!).toBeGreaterThanOrEqual(plantedMargin * (1 - 1e-9));
        }
      }),
      { numRuns: 300 },
    );
    expect(new Set(failures).size).toBeLessThanOrEqual(1);
  });

  it("solves again with larger constraint normals where quadprog calls separable data infeasible, and fails (not infeasible) beyond that", () => {
    // u = (1e-8, 1) and (1e-8, −1): separable only by w ≥ 1e8, γ* = 1e-8 against R ≈ 1. quadprog 1.6.1 calls
    // this QP infeasible at the normals u_i/R (its step tests are absolute); with a known separating vector the
    // solve is tried again at 2¹⁴·u_i/R, where it finds the optimum.
    const learner = toLearnerCoordinates(dataSetOf([[1e-8], [-1e-8]], [1, -1]), true);
    // Unaided, the coordinates balanced by powers of two (the feature's 1e-8 beside the bias's 1) find a
    // separator: not certified the max-margin one of these coordinates, so inexact, but never "infeasible".
    const unaided = maxMarginSeparator(learner);
    expect(unaided.status).toBe("inexact");
    expect(unaided.margin!).toBeGreaterThan(0);
    const aided = maxMarginSeparator(learner, { separating: Float64Array.of(1e9, 0) });
    expect(aided.status).toBe("optimal");
    expect(Math.abs(aided.margin! / 1e-8 - 1)).toBeLessThan(1e-6);
    // At 1e-20 no scale reaches it: "failed", since a known vector separates.
    const tiny = toLearnerCoordinates(dataSetOf([[1e-20], [-1e-20]], [1, -1]), true);
    const beyond = maxMarginSeparator(tiny, { separating: Float64Array.of(1e21, 0) });
    expect(beyond.status).toBe("failed");
    expect(beyond.message).toContain("beyond its numerical reach");
  });

  it("certifies planted data down to γ/R = 1e-12 (the input rules' smallest), and keeps every bound finite and scale-free at radius 1e±150", () => {
    for (const [margin, radius, bias] of [[1e-8, 1, true], [1e-10, 1, true], [1e-12, 1, false], [1e142, 1e150, false], [1e144, 1e150, false], [1e-152, 1e-150, false]] as const) {
      const data = generatePlanted({ n: 50, d: 3, margin, radius, offset: 0 }, createRandom(3, "data"));
      const learner = toLearnerCoordinates(data, bias);
      const result = maxMarginSeparator(learner, { separating: plantedSeparator(data, bias)! });
      const where = `margin ${margin}, radius ${radius}`;
      expect(["optimal", "inexact"], where).toContain(result.status);
      expect(result.margin! / margin, where).toBeGreaterThan(1 - 1e-4);
      // (R/γ*)² from the solver's vector, whatever its scale: within rounding of R²/γ*², finite.
      const bounds = computeBounds(learner, result.separator!, 1, new Float64Array(learner.dim)).bounds;
      expect(bounds.novikoff! / (learner.radiusSquared / result.margin! ** 2), where).toBeCloseTo(1, 9);
    }
  });
});
