import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { BOUND_NAMES } from "../../src/bounds/convergence-bounds.js";
import { boundColumn, countViolations, executeRun, executeRunSafely, ratioColumn } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { runSpec } from "../helpers.js";

const spec = runSpec;

describe("executeRun", () => {
  it("reports the learner's R̂ and γ̂ of the planted separator (THEORY.md)", () => {
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
    expect(row).toMatchObject({ status: "ok", converged: false, epochs: 1, violations: 0 });
    for (const name of BOUND_NAMES) expect(row[ratioColumn(name)]).toBeNull();
  });

  it("turns a run that throws into an error row", () => {
    const row = executeRunSafely(spec({ init: "bogus" }));
    expect(row).toMatchObject({ status: "error", updates: null, converged: null });
    expect(row.error).toBe('init "bogus" is not a valid init: use "zero", "normal:<scale>" or "uniform:<scale>" with scale > 0');
  });

  it("never exceeds a bound: random planted data, η from 1e-3 to 1e3, random ŵ(0), both orders (property)", () => {
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
          const row = executeRun(spec({ ...params, offset }));
          expect(row.status).toBe("ok");
          expect(row.converged).toBe(true);
          expect(row.violations).toBe(0);
          for (const name of BOUND_NAMES) {
            const bound = row[boundColumn(name)];
            if (bound !== null) expect(row.updates!).toBeLessThanOrEqual(bound * (1 + 1e-9));
          }
          expect(row.plantedBestBound).toBe(
            Math.min(...BOUND_NAMES.slice(0, 4).map((name) => row[boundColumn(name)]).filter((value): value is number => value !== null)),
          );
        },
      ),
      { numRuns: 300 },
    );
  });

  it("is a pure function of its spec", () => {
    expect(executeRun(spec({ order: "shuffle", init: "normal:1" }))).toEqual(executeRun(spec({ order: "shuffle", init: "normal:1" })));
  });
});

describe("countViolations", () => {
  const bounds = { novikoff: 10, snapp: 10, hu: 12, optimised: 9.5, best: 9.5 };

  it("counts the bounds a converged run exceeds, not best again", () => {
    expect(countViolations(10, true, bounds)).toBe(1);
    expect(countViolations(11, true, bounds)).toBe(3);
    expect(countViolations(13, true, bounds)).toBe(4);
  });

  it("allows rounding (a relative 1e-9) but nothing more, and ignores runs that did not converge", () => {
    expect(countViolations(10, true, { ...bounds, optimised: 10 * (1 - 1e-12) })).toBe(0);
    expect(countViolations(10, true, { ...bounds, optimised: 10 * (1 - 1e-6) })).toBe(1);
    expect(countViolations(100, false, bounds)).toBe(0);
    expect(countViolations(100, true, { novikoff: null, snapp: 200, hu: 300, optimised: 150, best: 150 })).toBe(0);
  });
});
