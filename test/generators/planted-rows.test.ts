import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { plantedRows } from "../../src/generators/planted-rows.js";

/** Values of every scale and sign, so that a different order of additions or a fused product would show in the last bits. */
function randomValues(random: () => number, length: number): Float64Array {
  return Float64Array.from({ length }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6));
}

// The module's own pass runs inside its planted draw, compared bit for bit with the TypeScript placement
// (which uses this one) in planted-draw.test.ts.
describe("the planted generator's row pass in TypeScript", () => {
  it("sums each row in the order of its components, as a plain loop does, and places x_i = base·w + scale·z_i", () => {
    const random = seedrandom("planted-rows/plain");
    for (const [n, d] of [
      [9, 7],
      [1, 1],
      [2, 3],
      [13, 12],
      [40, 31],
    ] as const) {
      const rows = randomValues(random, n * d);
      const w = randomValues(random, d);
      const x = rows.slice();
      const pass = plantedRows(x, n, d, w);
      for (let i = 0; i < n; i++) {
        let dot = 0;
        let square = 0;
        for (let j = 0; j < d; j++) {
          dot += rows[i * d + j]! * w[j]!;
          square += rows[i * d + j]! * rows[i * d + j]!;
        }
        expect([pass.dots[i], pass.squares[i]]).toEqual([dot, square]);
        pass.bases[i] = i - 4;
        pass.scales[i] = 1 / (i + 1);
      }
      pass.place();
      for (let k = 0; k < n * d; k++) {
        const i = Math.floor(k / d);
        expect(x[k]).toBe((i - 4) * w[k % d]! + (1 / (i + 1)) * rows[k]!);
      }
    }
  });
});
