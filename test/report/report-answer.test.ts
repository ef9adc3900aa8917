import { describe, expect, it } from "vitest";
import { answerLines } from "../../src/report/report-answer.js";
import type { RunRow } from "../../src/run/run-types.js";
import type { SummaryRow } from "../../src/run/summary-types.js";

const summaryRow = (ratio: number) => ({ optimalNovikoffRatio: { median: ratio }, bestRatio: { median: ratio / 2 } }) as unknown as SummaryRow;

describe("the report's answer (report-answer.ts)", () => {
  it("says how loose each bound is: the median over grid points of bound/updates, with its range", () => {
    const lines = answerLines([summaryRow(0.5), summaryRow(0.1), summaryRow(0.02)], [], "optimal");
    expect(lines).toEqual([
      "Novikoff (R/γ)² from the max-margin separator: a median 10× the updates (from 2.0× to 50× across 3 grid points).",
      "The best bound (the smallest that applies, over every separator): a median 20× the updates (from 4.0× to 100× across 3 grid points).",
    ]);
  });

  it("names the step of the proof with the largest share of log((R/γ)²/k), and splits the gap into order and proof where W* is exact", () => {
    const run = { converged: true, updates: 10, optimalGainFactor: 4, optimalAlignmentFactor: 1, optimalInterferenceFactor: 2, optimalRadiusFactor: 1, worstOrderLower: 100, worstOrderUpper: 100, optimalNovikoffBound: 1000 } as unknown as RunRow;
    const lines = answerLines([], [run, { ...run, worstOrderUpper: 120 } as RunRow], "optimal");
    expect(lines[0]).toBe(
      "Why Novikoff's bound is loose (2 runs from ŵ(0) = 0 with the proof's factors): the gain step (the updates moved further along ŵ* than the margin) accounts for 67 % of the gap (in logarithm), alignment 0 %, interference 33 %, radius 0 %.",
    );
    // One run exact (the other a bracket): log(100/10) for the order, log(1000/100) for the proof.
    expect(lines[1]).toBe(
      "Order or proof (1 converged run whose worst order W* was found exactly): of the gap between the updates and Novikoff (R/γ)², the order's luck (updates below W*) accounts for 50 % and the proof's slack (W* below the bound) for 50 %, in logarithm; on average W* is 10× below the bound.",
    );
  });

  it("says nothing where nothing was computed", () => {
    expect(answerLines([], [], "planted")).toEqual([]);
  });
});
