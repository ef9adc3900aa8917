import { probit, sampleStandardDeviation } from "simple-statistics";
import { describe, expect, it } from "vitest";
import { detectableChange } from "../../src/compare/detectable-change.js";
import { fisherDropP } from "../../src/compare/fisher-exact.js";

describe("detectableChange: what a check could confirm at its size", () => {
  it("says a paired check of 5 runs cannot fail among 98 checks, and can alone", () => {
    const differences = [1, 2, 3, 4, 5];
    const among = detectableChange({ kind: "paired", differences }, 0.05 / 98, false);
    expect(among).toMatchObject({ smallestP: 1 / 32, canFail: false, change: null });
    const alone = detectableChange({ kind: "paired", differences }, 0.05, false);
    expect(alone.canFail).toBe(true);
    // (z₀.₉₅ + z₀.₈)·s/√n, s the differences' spread.
    expect(alone.change).toBeCloseTo(((probit(0.95) + probit(0.8)) * sampleStandardDeviation(differences)) / Math.sqrt(5), 12);
    // Two-sided: twice the smallest p, the level split in two.
    expect(detectableChange({ kind: "paired", differences }, 0.05, true)).toMatchObject({ smallestP: 1 / 16, canFail: false });
  });

  it("scales a two-sample check by the pooled spread, and knows the smallest p of every arrangement", () => {
    const before = [10, 12, 14, 16];
    const after = [11, 13, 15, 17, 19];
    const figure = detectableChange({ kind: "two-sample", before, after }, 0.01, false);
    // 1/C(9, 4) = 1/126 > 0.01? No: 0.0079 < 0.01, so it can fail.
    expect(figure.smallestP).toBeCloseTo(1 / 126, 15);
    expect(figure.canFail).toBe(true);
    const pooled = Math.sqrt((3 * sampleStandardDeviation(before) ** 2 + 4 * sampleStandardDeviation(after) ** 2) / 7);
    expect(figure.change).toBeCloseTo((probit(0.99) + probit(0.8)) * pooled * Math.sqrt(1 / 4 + 1 / 5), 12);
  });

  it("gives the smallest drop of the converged share the exact tests confirm", () => {
    // Paired: k lost of 40 pairs give p = 2^−k; below 0.05 from k = 5.
    expect(detectableChange({ kind: "paired-counts", pairs: 40 }, 0.05, false).change).toBe(5 / 40);
    // Two samples of 10: the fewest of 10 lost that Fisher's test confirms, and one fewer does not.
    const { change } = detectableChange({ kind: "two-sample-counts", before: 10, after: 10 }, 0.05, false);
    const lost = Math.round(change! * 10);
    expect(fisherDropP(10, 10, 10 - lost, 10)).toBeLessThan(0.05);
    expect(fisherDropP(10, 10, 10 - (lost - 1), 10)).toBeGreaterThanOrEqual(0.05);
    // Larger and unequal sides, at a strict level: still the fewest.
    const large = detectableChange({ kind: "two-sample-counts", before: 200, after: 150 }, 0.001, false).change!;
    const fewest = Math.round(large * 150);
    expect(fisherDropP(200, 200, 150 - fewest, 150)).toBeLessThan(0.001);
    expect(fisherDropP(200, 200, 150 - (fewest - 1), 150)).toBeGreaterThanOrEqual(0.001);
  });
});
