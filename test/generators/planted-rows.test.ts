import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { plantedRowsTypeScript, plantedRowsWasm, type PlantedRows } from "../../src/generators/planted-rows.js";

/** Values of every scale and sign, so that a different order of additions or a fused product would show in the last bits. */
function randomValues(random: () => number, length: number): Float64Array {
  return Float64Array.from({ length }, () => (random() - 0.5) * 10 ** Math.floor(random() * 12 - 6));
}

/** The pass's outputs as data: the sums, then x after place() with the given coefficients, each value bit for bit. */
function outputs(make: (x: Float64Array) => PlantedRows | null, rows: Float64Array, coefficients: Float64Array, n: number): unknown {
  const x = rows.slice();
  const pass = make(x);
  if (pass === null) return "not run";
  const sums = [...pass.dots, ...pass.squares];
  pass.bases.set(coefficients.subarray(0, n));
  pass.scales.set(coefficients.subarray(n));
  pass.place();
  return [...sums, ...x].map((value) => (Object.is(value, -0) ? "-0" : String(value)));
}

describe("the planted generator's row pass", () => {
  it("gives, in WebAssembly, the TypeScript pass's sums and points to the bit, for any number of rows and components", () => {
    const random = seedrandom("planted-rows");
    for (let trial = 0; trial < 300; trial++) {
      // n from 0 to 13 (the four-row groups and every tail), then larger; d from 1, odd and even.
      const n = trial < 140 ? trial % 14 : 1 + Math.floor(random() * 300);
      const d = 1 + Math.floor(random() * (trial % 5 === 0 ? 120 : 12));
      const rows = randomValues(random, n * d);
      const w = randomValues(random, d);
      const coefficients = randomValues(random, 2 * n);
      const wasm = outputs((x) => plantedRowsWasm(x, n, d, w), rows, coefficients, n);
      expect(wasm, `n ${n}, d ${d}`).not.toBe("not run");
      expect(wasm, `n ${n}, d ${d}`).toEqual(outputs((x) => plantedRowsTypeScript(x, n, d, w), rows, coefficients, n));
    }
  });

  it("sums each row in the order of its components, as a plain loop does, and places x_i = base·w + scale·z_i", () => {
    const random = seedrandom("planted-rows/plain");
    const n = 9;
    const d = 7;
    const rows = randomValues(random, n * d);
    const w = randomValues(random, d);
    const x = rows.slice();
    const pass = plantedRowsWasm(x, n, d, w)!;
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
  });
});
