import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../../src/bounds/bound-columns.js";
import { countViolations, executeRun, executeRunSafely } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { runSpec } from "../helpers.js";

const spec = runSpec;

describe("executeRun", () => {
  it("reports the learner's R̂ and γ̂ of the planted separator (docs/theory.md)", () => {
    const row = executeRun(spec({ offset: 0.5, radius: 2, margin: 0.2 }));
    expect(row.learnerRadius).toBeCloseTo(Math.sqrt(5), 12);
    expect(row.plantedMargin).toBeCloseTo(0.2 / Math.sqrt(1.25), 12);
    expect(row.plantedNovikoffBound).toBeCloseTo(5 / (0.04 / 1.25), 6);
  });

  it("marks Novikoff as not applicable from a random ŵ(0)", () => {
    const row = executeRun(spec({ init: "normal:1" }));
    expect(row.plantedNovikoffBound).toBeNull();
    expect(row.plantedNovikoffRatio).toBeNull();
    expect(row.plantedSnappBound).not.toBeNull();
  });

  it("keeps a run cut off at maxEpochs as converged: false, without ratios", () => {
    const row = executeRun(spec({ margin: 0.001, n: 400, d: 20, maxEpochs: 1 }));
    expect(row).toMatchObject({ status: "ok", converged: false, epochs: 1, violations: 0, separable: true, bestRatio: null });
    for (const column of RATIO_COLUMNS) expect(row[column]).toBeNull();
  });

  it("turns a run that throws into an error row", () => {
    const row = executeRunSafely(spec({ init: "bogus" }));
    expect(row).toMatchObject({ status: "error", updates: null, converged: null });
    expect(row.error).toBe('init "bogus" is not a valid init: use "zero", "normal:<scale>" or "uniform:<scale>" with scale > 0');
  });

  it("never exceeds a bound, converged or cut off: random planted data, η from 1e-3 to 1e3, random ŵ(0), both orders (property)", () => {
    fc.assert(
      fc.property(
        fc.record({
          seed: fc.integer({ min: 0, max: 2 ** 40 }),
          n: fc.integer({ min: 2, max: 60 }),
          d: fc.integer({ min: 1, max: 12 }),
          margin: fc.double({ min: 0.02, max: 0.5, noNaN: true }),
          offset: fc.double({ min: -0.4, max: 0.4, noNaN: true }),
          bias: fc.boolean(),
          eta: fc.double({ min: -3, max: 3, noNaN: true }).map((e) => 10 ** e),
          init: fc.constantFrom("zero", "normal:0.01", "normal:1", "normal:100", "uniform:1", "uniform:10"),
          order: fc.constantFrom("cyclic" as const, "shuffle" as const),
        }),
        (params) => {
          const offset = params.bias && Math.abs(params.offset) + params.margin < 1 ? params.offset : 0;
          const row = executeRun(spec({ ...params, offset, maxEpochs: 20_000 }));
          expect(row).toMatchObject({ status: "ok", violations: 0, separable: true, optimalStatus: "optimal" });
          if (!row.converged) expect(row.epochs).toBe(20_000);
          for (const column of BOUND_COLUMNS) {
            const bound = row[column];
            if (bound !== null) expect(row.updates!).toBeLessThanOrEqual(bound * (1 + 1e-9));
          }
          // The max-margin γ* is at least the planted γ̂, up to the solver's certified gap.
          expect(row.optimalMargin!).toBeGreaterThanOrEqual(row.plantedMargin! * (1 - 1e-6));
          const bounds = [...BOUND_COLUMNS.filter((column) => !column.endsWith("BestBound")).map((column) => row[column]), row.tightestHuBound, row.tightestOptimisedBound];
          expect(row.bestBound).toBe(Math.min(...bounds.filter((value): value is number => value !== null)));
          // The tightest separators' Hu D² and N(v) are never above the planted or max-margin ones, nor below the run.
          expect(row.tightestHuBound!).toBeLessThanOrEqual(Math.min(row.optimalHuBound!, row.plantedHuBound!));
          expect(row.tightestOptimisedBound!).toBeLessThanOrEqual(Math.min(row.optimalOptimisedBound!, row.plantedOptimisedBound!));
          for (const bound of [row.tightestHuBound, row.tightestOptimisedBound, row.plantedFreundSchapireBound, row.tightestFreundSchapireBound]) {
            if (bound !== null) expect(row.updates!).toBeLessThanOrEqual(bound);
          }
          // Freund–Schapire from ŵ(0) = 0 only, the tightest never above the planted one nor above (R/γ*)² at γ = γ*.
          expect(row.plantedFreundSchapireBound === null).toBe(params.init !== "zero");
          if (params.init === "zero") {
            expect(row.tightestFreundSchapireBound!).toBeLessThanOrEqual(row.plantedFreundSchapireBound!);
            expect(row.tightestFreundSchapireBound!).toBeLessThanOrEqual(row.optimalNovikoffBound! * (1 + 1e-12));
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it("leaves the max-margin columns empty, status off, when the experiment turns it off", () => {
    const row = executeRun(spec({ optimal: false }));
    expect(row).toMatchObject({ optimalStatus: "off", optimalMargin: null, optimalNovikoffBound: null, separable: true });
    expect(row.bestBound).toBe(row.plantedBestBound);
  });

  it("checks the structured families' exact counts against the max-margin separator", () => {
    for (const overrides of [
      { generator: "orthonormal", n: 12, d: 12, bias: false },
      { generator: "hadamard", n: 16, d: 15, eta: 0.25 },
      { generator: "three-point", n: 3, d: 1, c: 10, eta: 0.5 },
      { generator: "three-point", n: 3, d: 1, c: 4.5 },
    ] as const) {
      const row = executeRun(spec({ eta: 0.7, ...overrides, margin: null, radius: null, offset: null }));
      expect(row.expectedUpdates).toBe(overrides.generator === "three-point" ? 1 + Math.floor((overrides.c * overrides.c) / 2) : overrides.n);
      expect(row).toMatchObject({ updates: row.expectedUpdates, violations: 0, optimalStatus: "optimal" });
      if (overrides.generator !== "three-point") expect(row.optimalNovikoffRatio).toBe(1);
      else expect(row.optimalNovikoffBound).toBeCloseTo(1 + overrides.c * overrides.c, 9);
    }
  });

  it("holds a run cut off at maxEpochs to its expected count only as a ceiling", () => {
    // c = 100: 1 + 5000 updates need about 2500 epochs of 3 points.
    const row = executeRun(spec({ generator: "three-point", n: 3, d: 1, c: 100, margin: null, radius: null, offset: null, maxEpochs: 100 }));
    expect(row).toMatchObject({ converged: false, expectedUpdates: 5001, violations: 0 });
    expect(row.updates!).toBeLessThan(5001);
  });

  it("expects no exact Hadamard count for a non-dyadic η, whose rounding breaks the ties at 0", () => {
    const row = executeRun(spec({ generator: "hadamard", n: 16, d: 15, margin: null, radius: null, offset: null, eta: 0.7 }));
    expect(row).toMatchObject({ expectedUpdates: null, updates: 10, violations: 0 });
  });

  it("is a pure function of its spec", () => {
    expect(executeRun(spec({ order: "shuffle", init: "normal:1" }))).toEqual(executeRun(spec({ order: "shuffle", init: "normal:1" })));
  });

  it("gives a run the same row whatever ran before it on the thread (the points' and learner's arrays are reused)", () => {
    // Runs of one size in a row (the same arrays again, as in a sweep), sizes up and down (other views, growth),
    // both data versions, with and without a bias, noise or the max-margin steps.
    const specs = [
      spec({ n: 40, d: 3, seed: 1 }),
      spec({ n: 40, d: 3, seed: 2 }),
      spec({ n: 40, d: 3, seed: 3, dataVersion: 1 }),
      spec({ n: 300, d: 12, seed: 7, bias: false, optimal: false }),
      spec({ n: 300, d: 12, seed: 8, bias: false, optimal: false }),
      spec({ n: 2, d: 1, seed: 9 }),
      spec({ n: 60, d: 8, seed: 10, optimal: false, noise: 0.1, maxEpochs: 50 }),
      spec({ n: 60, d: 8, seed: 11, optimal: false, noise: 0.1, maxEpochs: 50 }),
      spec({ n: 40, d: 3, seed: 12, order: "shuffle", init: "normal:1" }),
    ];
    const inOrder = specs.map((s) => executeRun(s));
    // Each after a run of a size no other has: on arrays of its own.
    const alone = specs.map((s) => {
      executeRun(spec({ n: 3, d: 2, seed: 99 }));
      return executeRun(s);
    });
    expect(inOrder).toEqual(alone);
    expect(new Set(inOrder.map((row) => row.plantedFreundSchapireBound)).size).toBeGreaterThan(5);
  });
});

describe("countViolations", () => {
  const bounds = { novikoff: 10, snapp: 10, hu: 12, optimised: 9.5, best: 9.5 };

  it("counts the bounds a run exceeds, not best again", () => {
    expect(countViolations(10, bounds)).toBe(1);
    expect(countViolations(11, bounds)).toBe(3);
    expect(countViolations(13, bounds)).toBe(4);
    expect(countViolations(13, null)).toBe(0);
  });

  it("allows rounding (a relative 1e-9) but nothing more", () => {
    expect(countViolations(10, { ...bounds, optimised: 10 * (1 - 1e-12) })).toBe(0);
    expect(countViolations(10, { ...bounds, optimised: 10 * (1 - 1e-6) })).toBe(1);
    expect(countViolations(100, { novikoff: null, snapp: 200, hu: 300, optimised: 150, best: 150 })).toBe(0);
  });
});
