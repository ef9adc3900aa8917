import { describe, expect, it } from "vitest";
import { generateData } from "../../src/generators/generate-data.js";
import { drawInitialWeights } from "../../src/perceptron/initial-weights.js";
import { createRandom } from "../../src/random/seeded-random.js";
import type { PointParameters } from "../../src/run/run-types.js";
import { bytesDigest, plantedPoint } from "../helpers.js";

// docs/theory.md, "Data versions": every data version the tool has shipped stays reproducible bit for bit.
// These digests were recorded on Node 20.20 (where data version 1 was defined) and hold on Node 24,
// whose Math.pow differs: the generators use fdlibmPow and fdlibmLog, never the engine's pow or log.
// A change here is a change of data version 1: never update a digest to make this test pass.




function dataDigest(p: PointParameters, seed: number): string {
  const data = generateData(p, createRandom(seed, "data"));
  const planted = data.planted ? [data.planted.w, new Float64Array([data.planted.b])] : [];
  return bytesDigest(data.x, data.y, ...planted);
}

describe("data version 1: recorded digests of data sets and initial weights", () => {
  const cases: [string, PointParameters, number, string][] = [
    ["planted d 2", plantedPoint({}), 1, "ef523d5f9b404ee7"],
    ["planted d 3 (U^(1/2): the √ path of pow)", plantedPoint({ d: 3 }), 2, "2146075323095b00"],
    ["planted d 8, offset 0.3", plantedPoint({ d: 8, offset: 0.3 }), 3, "b4a7f175a6da7428"],
    ["planted d 50, n 400, margin 0.01", plantedPoint({ d: 50, n: 400, margin: 0.01 }), 200, "a7ca223ce8f689bf"],
    ["planted d 1", plantedPoint({ d: 1 }), 4, "6e7e0ec33b47d35b"],
    ["orthonormal n 8", plantedPoint({ generator: "orthonormal", n: 8, d: 8, margin: null, radius: null, offset: null, bias: false }), 5, "98f29ffb30f59e7c"],
    ["hadamard n 16", plantedPoint({ generator: "hadamard", n: 16, d: 15, margin: null, radius: null, offset: null }), 6, "812712e46b531394"],
    ["three-point c 3", plantedPoint({ generator: "three-point", n: 3, d: 1, margin: null, radius: null, offset: null, c: 3 }), 7, "4a046fcda4dea99d"],
  ];
  for (const [name, p, seed, digest] of cases) {
    it(`${name}, seed ${seed}`, () => expect(dataDigest(p, seed)).toBe(digest));
  }

  it("initial weights normal:1 and uniform:0.5, 11 entries", () => {
    const normal = drawInitialWeights({ kind: "normal", scale: 1 }, 11, () => createRandom(9, "init"));
    const uniform = drawInitialWeights({ kind: "uniform", scale: 0.5 }, 11, () => createRandom(9, "init"));
    expect(bytesDigest(normal, uniform)).toBe("199517cfa534d1fd");
  });
});
