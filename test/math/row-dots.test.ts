import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { rowDots, rowDotsAndSquares } from "../../src/math/row-dots.js";

/** Values of every scale and sign, so that a different order of additions would show in the last bits. */
function randomValues(random: () => number, length: number): Float64Array {
  return Float64Array.from({ length }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6));
}

describe("rowDots and rowDotsAndSquares", () => {
  it("give, to the bit, each row's sums as a plain loop over the row adds them, for any number of rows", () => {
    const random = seedrandom("row-dots");
    let differentOrderDiffers = false;
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
        expect(Object.is(dots[i], dot)).toBe(true);
        expect(Object.is(both[i], fromZero)).toBe(true);
        expect(Object.is(squares[i], square)).toBe(true);
      }
    }
    // The data are such that the order of the additions matters: the test can tell a reordered sum.
    expect(differentOrderDiffers).toBe(true);
  });
});
