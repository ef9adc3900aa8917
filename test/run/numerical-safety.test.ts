import { describe, expect, it } from "vitest";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { executeRunSafely } from "../../src/run/execute-run.js";
import { fitDataSet } from "../../src/run/fit-data-set.js";
import { replaceNonFinite } from "../../src/run/non-finite.js";
import { dataSetOf, learnerOf, runSpec, STRUCTURED } from "../helpers.js";

const zeroInit = { bias: true, eta: 1, init: { kind: "zero" }, order: "cyclic", maxEpochs: 100, seed: 1 } as const;

describe("numerical safety", () => {
  it("never takes an overflow (∞ − ∞ = NaN) for a correct classification", () => {
    // u₂·ŵ = 1e307·1e307 − 5e306·1e307 − 1 = ∞ − ∞: NaN, which "dot <= 0" would have let pass as correct.
    const huge = dataSetOf([[1e307, 1e307], [-1e307, 5e306], [3e307, -1e307]], [1, -1, 1]);
    expect(() => fitDataSet(huge, zeroInit)).toThrow("float64 overflow after 1 updates");
  });

  it("does not declare convergence with infinite weights", () => {
    const learner = learnerOf([[1e308], [1e308]]);
    expect(() => trainPerceptron(learner, { eta: 1e308, initialWeights: Float64Array.of(1e308), order: "cyclic", maxEpochs: 5 })).not.toThrow();
    expect(() => trainPerceptron(learnerOf([[-1e308]]), { eta: 10, initialWeights: Float64Array.of(1e308), order: "cyclic", maxEpochs: 5 })).toThrow(
      "float64 overflow",
    );
  });

  it("turns an overflowing run of a sweep into an error row that says so", () => {
    const row = executeRunSafely(runSpec({ radius: 1e200, margin: 1e199 }));
    expect(row.status).toBe("error");
    expect(row.error).toContain("float64 overflow");
  });

  it("works across scales where float64 holds the squares (1e-150 to 1e150)", () => {
    for (const scale of [1e-150, 1e-6, 1, 1e6, 1e150]) {
      const data = dataSetOf([[3 * scale, 1 * scale], [-2 * scale, 1 * scale], [1 * scale, -4 * scale]], [1, -1, 1]);
      const report = fitDataSet(data, { ...zeroInit, bias: false });
      expect(report).toMatchObject({ converged: true, separable: true, nonFinite: [], violations: 0 });
      expect(report.margin! / scale).toBeCloseTo(fitDataSet(dataSetOf([[3, 1], [-2, 1], [1, -4]], [1, -1, 1]), { ...zeroInit, bias: false }).margin!, 9);
    }
  });

  it("makes an underflowing η an error row that says so, never a false bound violation", () => {
    // η = 5e-324 from ŵ(0) = 0: the increments η·u are subnormal or 0, and the run exceeded (R/γ)² before.
    const row = executeRunSafely(runSpec({ eta: 5e-324 }));
    expect(row).toMatchObject({ status: "error", violations: null });
    expect(row.error).toMatch(/^float64 underflow: η = 5e-324 times the data's squared radius/);
    // A small η that float64 carries is a run like any other, with the counts of η = 1 (from ŵ(0) = 0).
    expect(executeRunSafely(runSpec({ eta: 1e-300 }))).toMatchObject({ status: "ok", violations: 0, updates: executeRunSafely(runSpec()).updates });
  });

  it("makes data beyond float64's squares an overflow error row, not a run that merely did not converge", () => {
    // three-point with c = 1e155: R̂² = c² + 1 overflows; the dot products were ±∞ and passed for decisions.
    const row = executeRunSafely(runSpec({ generator: "three-point", n: 3, d: 1, c: 1e155, ...STRUCTURED, maxEpochs: 10 }));
    expect(row).toMatchObject({ status: "error", converged: null });
    expect(row.error).toContain("float64 overflow after");
  });

  it("calls separable data separable when the solver cannot certify them, and keeps the planted separator where it is better", () => {
    // three-point with c = 1e10: 5e19 updates are needed, the QP is beyond quadprog's certificate, the data
    // separable. Its best vector has margin 1/3; the planted one (margin 1) is kept, not certified: inexact.
    const row = executeRunSafely(runSpec({ generator: "three-point", n: 3, d: 1, c: 1e10, ...STRUCTURED, maxEpochs: 10 }));
    expect(row).toMatchObject({ status: "ok", converged: false, separable: true, optimalStatus: "inexact", violations: 0 });
    expect(row.optimalMargin).toBe(row.plantedMargin);
  });

  it("replaces non-finite numbers with null and names them", () => {
    expect(replaceNonFinite({ a: 1, b: Infinity, c: NaN, d: "x", e: null })).toEqual({ record: { a: 1, b: null, c: null, d: "x", e: null }, names: ["b", "c"] });
  });
});
