import { describe, expect, it } from "vitest";
import { generatePlanted, type PlantedParameters } from "../../src/generators/planted.js";
import { createDraws } from "../../src/random/random-draws.js";
import type { DataVersion } from "../../src/random/data-version.js";

const BASE: PlantedParameters = { n: 400, d: 5, margin: 0.1, radius: 1, offset: 0.2 };
const VERSIONS: readonly DataVersion[] = [1, 2];
const draw = (params: PlantedParameters, version: DataVersion, seed = 17) => generatePlanted(params, createDraws(seed, "data", version));

/** y(w·x + b) of every point. */
function signedDistances({ n, d, x, y, planted }: ReturnType<typeof generatePlanted>): number[] {
  return Array.from({ length: n }, (_, i) => {
    let dot = planted!.b;
    for (let j = 0; j < d; j++) dot += planted!.w[j]! * x[i * d + j]!;
    return y[i]! * dot;
  });
}

describe("planted data beyond separability (docs/theory.md, Beyond separable data)", () => {
  it("noise 0 and overlap 0 draw the separable data set, bit for bit, in both data versions", () => {
    for (const version of VERSIONS) {
      const plain = draw(BASE, version);
      const explicit = draw({ ...BASE, noise: 0, overlap: 0 }, version);
      expect(explicit.x).toEqual(plain.x);
      expect(explicit.y).toEqual(plain.y);
    }
  });

  it("label noise flips each label with its probability, the points unchanged, and a rate's flips within every larger rate's", () => {
    for (const version of VERSIONS) {
      const clean = draw({ ...BASE, n: 20_000 }, version);
      let previous = new Set<number>();
      for (const noise of [0.01, 0.1, 0.3, 1]) {
        const noisy = draw({ ...BASE, n: 20_000, noise }, version);
        expect(Buffer.from(noisy.x.buffer).equals(Buffer.from(clean.x.buffer))).toBe(true);
        const flipped = new Set<number>();
        for (let i = 0; i < clean.n; i++) if (noisy.y[i] !== clean.y[i]) flipped.add(i);
        // Binomial(20 000, p): within 5 standard deviations.
        expect(Math.abs(flipped.size - 20_000 * noise)).toBeLessThanOrEqual(5 * Math.sqrt(20_000 * noise * (1 - noise)) + 1e-9);
        for (const i of previous) expect(flipped.has(i)).toBe(true);
        previous = flipped;
      }
    }
  });

  it("overlap δ puts points on the wrong side, at most δ deep, none in the band (0, γ), all within the radius", () => {
    for (const version of VERSIONS) {
      for (const overlap of [0.05, 0.3]) {
        const data = draw({ ...BASE, n: 5000, overlap }, version);
        const distances = signedDistances(data);
        const wrong = distances.filter((t) => t < 0);
        // Uniform on [−δ, 0) ∪ [γ, R ± b]: about δ/(δ + R ± b − γ) of the points other than the support pair.
        expect(wrong.length).toBeGreaterThan(0);
        expect(Math.min(...distances)).toBeGreaterThanOrEqual(-overlap - 1e-12);
        expect(distances.filter((t) => t > 1e-12 && t < BASE.margin - 1e-12)).toEqual([]);
        for (let i = 0; i < data.n; i++) {
          let norm2 = 0;
          for (let j = 0; j < data.d; j++) norm2 += data.x[i * data.d + j]! ** 2;
          expect(Math.sqrt(norm2)).toBeLessThanOrEqual(BASE.radius * (1 + 1e-12));
        }
        const expected = (5000 - 2) * (overlap / (overlap + 1 - BASE.margin)) ** 1; // roughly, over both labels
        expect(wrong.length).toBeGreaterThan(expected * 0.5);
        expect(wrong.length).toBeLessThan(expected * 2);
      }
    }
  });
});
