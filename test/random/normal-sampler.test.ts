import { describe, expect, it } from "vitest";
import { NormalSampler } from "../../src/random/normal-sampler.js";
import { createRandom } from "../../src/random/seeded-random.js";

describe("createRandom", () => {
  it("gives the same stream for the same seed and name, and different streams otherwise", () => {
    const draw = (seed: number, stream: "data" | "init") => {
      const random = createRandom(seed, stream);
      return [random(), random(), random()];
    };
    expect(draw(7, "data")).toEqual(draw(7, "data"));
    expect(draw(7, "data")).not.toEqual(draw(8, "data"));
    expect(draw(7, "data")).not.toEqual(draw(7, "init"));
  });
});

describe("NormalSampler", () => {
  it("has mean 0 and variance 1 (200 000 draws: 5 standard errors)", () => {
    const normal = new NormalSampler(createRandom(1, "data"));
    const count = 200_000;
    let sum = 0;
    let sumSquares = 0;
    for (let i = 0; i < count; i++) {
      const value = normal.next();
      sum += value;
      sumSquares += value * value;
    }
    const mean = sum / count;
    const variance = sumSquares / count - mean * mean;
    // Standard errors: 1/√count for the mean, √(2/count) for the variance.
    expect(Math.abs(mean)).toBeLessThan(5 / Math.sqrt(count));
    expect(Math.abs(variance - 1)).toBeLessThan(5 * Math.sqrt(2 / count));
  });

  it("puts 68.3 % of its draws within one standard deviation", () => {
    const normal = new NormalSampler(createRandom(2, "data"));
    const count = 100_000;
    let inside = 0;
    for (let i = 0; i < count; i++) if (Math.abs(normal.next()) < 1) inside++;
    // P(|Z| < 1) = 0.682689; binomial standard error √(p(1−p)/count) ≈ 0.00147.
    expect(Math.abs(inside / count - 0.682689)).toBeLessThan(5 * 0.00147);
  });
});
