import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { rowDots, rowDotsAndAbsolutes, rowDotsAndAbsolutesTypeScript, rowDotsAndSquares, rowDotsTypeScript } from "../../src/perceptron/row-passes.js";
import { wasmKernelProblem } from "../../src/perceptron/perceptron-wasm.js";

/** Values of every scale and sign, so that a different order of additions would show in the last bits. */
function randomValues(random: () => number, length: number): Float64Array {
  return Float64Array.from({ length }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6));
}

describe("rowDots and rowDotsAndSquares", () => {
  it("give, to the bit, each row's sums as a plain loop over the row adds them, for any number of rows", () => {
    const random = seedrandom("row-dots");
    let differentOrderDiffers = false;
    const wrong: object[] = [];
    for (let trial = 0; trial < 400; trial++) {
      const n = trial % 11;
      const dim = 1 + Math.floor(random() * 40);
      const u = randomValues(random, n * dim);
      const w = randomValues(random, dim);
      const start = trial % 3 === 0 ? 0 : (random() - 0.5) * 4;
      const dots = new Float64Array(n).fill(NaN);
      const both = new Float64Array(n).fill(NaN);
      const squares = new Float64Array(n).fill(NaN);
      rowDots(u, n, dim, w, dots, start);
      rowDotsAndSquares(u, n, dim, w, both, squares);
      for (let i = 0; i < n; i++) {
        let dot = start;
        let fromZero = 0;
        let square = 0;
        let backwards = 0;
        for (let j = 0; j < dim; j++) {
          dot += w[j]! * u[i * dim + j]!;
          fromZero += u[i * dim + j]! * w[j]!;
          square += u[i * dim + j]! * u[i * dim + j]!;
        }
        for (let j = dim - 1; j >= 0; j--) backwards += w[j]! * u[i * dim + j]!;
        if (!Object.is(backwards, fromZero)) differentOrderDiffers = true;
        // Collected rather than asserted one by one: an expect per row costs more than the sums.
        if (!Object.is(dots[i], dot) || !Object.is(both[i], fromZero) || !Object.is(squares[i], square)) wrong.push({ trial, i, got: [dots[i], both[i], squares[i]], want: [dot, fromZero, square] });
      }
    }
    expect(wrong).toEqual([]);
    // The data are such that the order of the additions matters: the test can tell a reordered sum.
    expect(differentOrderDiffers).toBe(true);
  });

  it("rowDots and rowDotsAndAbsolutes run in WebAssembly here and give their TypeScript references' float64s, and the plain loop's", () => {
    expect(wasmKernelProblem()).toBeNull();
    const wrong: object[] = [];
    const random = seedrandom("row-dots/wasm");
    for (let trial = 0; trial < 400; trial++) {
      // n 0 to 12 (the four- and two-row groups and every tail), then larger; widths from 1, odd and even.
      const n = trial < 130 ? trial % 13 : 1 + Math.floor(random() * 400);
      const dim = 1 + Math.floor(random() * (trial % 4 === 0 ? 90 : 15));
      const u = randomValues(random, n * dim);
      const w = randomValues(random, dim);
      const start = trial % 3 === 0 ? 0 : (random() - 0.5) * 4;
      const sums = Array.from({ length: 5 }, () => new Float64Array(n).fill(NaN));
      const [wasm, reference, dots, absolutes, referenceAbsolutes] = sums as [Float64Array, Float64Array, Float64Array, Float64Array, Float64Array];
      rowDots(u, n, dim, w, wasm, start);
      rowDotsTypeScript(u, n, dim, w, reference, start);
      rowDotsAndAbsolutes(u, n, dim, w, dots, absolutes);
      const referenceDots = new Float64Array(n);
      rowDotsAndAbsolutesTypeScript(u, n, dim, w, referenceDots, referenceAbsolutes);
      for (let i = 0; i < n; i++) {
        let dot = 0;
        let absolute = 0;
        for (let j = 0; j < dim; j++) {
          dot += w[j]! * u[i * dim + j]!;
          absolute += Math.abs(w[j]! * u[i * dim + j]!);
        }
        let fromStart = start;
        for (let j = 0; j < dim; j++) fromStart += w[j]! * u[i * dim + j]!;
        const got = [wasm[i], reference[i], dots[i], referenceDots[i], absolutes[i], referenceAbsolutes[i]];
        const want = [fromStart, fromStart, dot, dot, absolute, absolute];
        if (got.some((value, k) => !Object.is(value, want[k]))) wrong.push({ row: `trial ${trial}, n ${n}, dim ${dim}, row ${i}`, got, want });
      }
    }
    expect(wrong).toEqual([]);
  });
});
