import { createHash } from "node:crypto";
import { describe, expect, it } from "vitest";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { findRun } from "../../src/sweep/find-run.js";
import { planSweep, repeatsIdentical } from "../../src/sweep/plan-sweep.js";
import { describePlan } from "../../src/sweep/describe-plan.js";
import { runSeed } from "../../src/sweep/run-seed.js";

const experiment = (value: Record<string, unknown>) => parseExperiment({ name: "t", ...value }, "t");

describe("planSweep", () => {
  it("is the Cartesian product of the grid times repeats, repeats innermost", () => {
    const plan = planSweep(experiment({ repeats: 3, grid: { n: [10, 20], d: 2, margin: [0.1, 0.2], eta: [1, 2] } }));
    expect(plan.pointCount).toBe(8);
    expect(plan.runCount).toBe(24);
    const runs = [...plan.runs()];
    expect(runs.map((run) => run.run)).toEqual([...Array(24).keys()]);
    expect(runs.slice(0, 4).map((run) => [run.point, run.repeat, run.n, run.margin, run.eta])).toEqual([
      [0, 0, 10, 0.1, 1],
      [0, 1, 10, 0.1, 1],
      [0, 2, 10, 0.1, 1],
      [1, 0, 10, 0.1, 2],
    ]);
  });

  it("does not multiply a generator's runs by keys it does not use", () => {
    const plan = planSweep(experiment({ grid: { generator: ["planted", "orthonormal"], n: 4, d: 4, margin: [0.1, 0.2, 0.3], offset: 0 } }));
    // planted: 3 margins; orthonormal: margin, radius and offset unused, so 1 point (d = 4 = n).
    expect(plan.pointCount).toBe(4);
    const orthonormal = [...plan.runs()].filter((run) => run.generator === "orthonormal");
    expect(orthonormal).toHaveLength(1);
    expect(orthonormal[0]).toMatchObject({ margin: null, radius: null, offset: null, bias: false, d: 4 });
  });

  it("derives d for the structured families and their natural bias", () => {
    const runs = [...planSweep(experiment({ grid: [{ generator: "hadamard", n: 8 }, { generator: "orthonormal", n: 5 }] })).runs()];
    expect(runs.map((run) => [run.generator, run.n, run.d, run.bias, run.grid])).toEqual([
      ["hadamard", 8, 7, true, 0],
      ["orthonormal", 5, 5, false, 1],
    ]);
  });

  it("skips and counts the points a rule excludes", () => {
    const plan = planSweep(experiment({ grid: { n: 10, d: 2, margin: 0.1, offset: [0, 0.3], bias: [true, false] } }));
    expect(plan.pointCount).toBe(3);
    expect(plan.skipped).toEqual([{ grid: 0, reason: "planted: offset must be 0 without a bias", points: 1 }]);

    const structured = planSweep(experiment({ grid: { generator: ["orthonormal", "hadamard"], n: [4, 6], bias: [true, false] } }));
    // orthonormal: bias false only (n 4, 6); hadamard: bias true and n a power of 2 (n 4). Reasons in
    // order of first occurrence.
    expect(structured.pointCount).toBe(3);
    expect(structured.skipped).toEqual([
      { grid: 0, reason: "orthonormal: needs bias false", points: 2 },
      { grid: 0, reason: "hadamard: needs bias true", points: 2 },
      { grid: 0, reason: "hadamard: needs n a power of 2", points: 1 },
    ]);
  });

  it("gives each run a seed of its own parameters: adding a grid value leaves existing runs' seeds alone", () => {
    const seeds = (grid: Record<string, unknown>) =>
      new Map([...planSweep(experiment({ repeats: 2, grid })).runs()].map((run) => [`${run.margin}/${run.d}/${run.repeat}`, run.seed]));
    const before = seeds({ n: 10, d: [2, 3], margin: [0.1, 0.2] });
    const after = seeds({ n: 10, d: [2, 3, 5], margin: [0.05, 0.1, 0.2] });
    for (const [key, seed] of before) expect(after.get(key)).toBe(seed);
    expect(new Set(after.values()).size).toBe(after.size);
  });

  it("shares a data seed across η, init, order and bias (paired comparisons)", () => {
    const runs = [...planSweep(experiment({ grid: { n: 10, d: 2, margin: 0.1, eta: [1, 2], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"], bias: [true, false] } })).runs()];
    expect(new Set(runs.map((run) => run.seed)).size).toBe(1);
  });

  it("changes every seed with the experiment seed", () => {
    const seedsOf = (seed: number) => [...planSweep(experiment({ seed, repeats: 3, grid: { n: 10, d: 2, margin: 0.1 } })).runs()].map((run) => run.seed);
    const one = seedsOf(1);
    const two = seedsOf(2);
    one.forEach((seed, index) => expect(seed).not.toBe(two[index]));
  });
});

describe("runSeed", () => {
  it("is a 48-bit integer of the canonical parameters, whatever their key order", () => {
    const seed = runSeed(1, { n: 10, d: 2 }, 0);
    expect(Number.isSafeInteger(seed)).toBe(true);
    expect(seed).toBeLessThan(2 ** 48);
    expect(runSeed(1, { d: 2, n: 10 }, 0)).toBe(seed);
    expect(runSeed(1, { n: 10, d: 2 }, 1)).not.toBe(seed);
  });

  it("is the first 48 bits of SHA-256 of [seed,[[key,value],…],repeat]: pinned, since every table depends on it", () => {
    // The first six bytes, big-endian, of sha256('[1,[["d",2],["n",10]],0]'):
    expect(runSeed(1, { n: 10, d: 2 }, 0)).toBe(199114469279381);
    const canonical = '[7,[["generator","planted"],["margin",0.1],["offset",-0.25]],12]';
    expect(runSeed(7, { offset: -0.25, margin: 0.1, generator: "planted" }, 12)).toBe(createHash("sha256").update(canonical).digest().readUIntBE(0, 6));
  });
});

describe("findRun", () => {
  it("finds a run by its index and refuses one out of range", () => {
    const exp = experiment({ repeats: 2, grid: { n: 10, d: 2, margin: [0.1, 0.2] } });
    expect(findRun(exp, 3)).toMatchObject({ run: 3, point: 1, repeat: 1, margin: 0.2 });
    const runs = [...planSweep(exp).runs()];
    runs.forEach((spec) => expect(findRun(exp, spec.run)).toEqual(spec));
    expect(() => findRun(exp, 4)).toThrow("--run 4: the sweep has 4 runs, numbered 0 to 3");
  });
});

describe("repeats that are one run", () => {
  it("are the points of data no seed draws, from ŵ(0) = 0 in the cyclic order; describePlan counts them", () => {
    const experiment = parseExperiment(
      { repeats: 4, grid: [{ generator: "three-point", c: [2, 3], init: ["zero", "normal:1"], order: ["cyclic", "shuffle"] }, { n: 10, d: 2, margin: 0.1 }, { generator: "orthonormal", n: 4 }] },
      "r",
    );
    const identical = [...planSweep(experiment).points()].filter((point) => repeatsIdentical(point.parameters));
    // three-point: c 2 and 3, each once from zero and cyclic; planted and orthonormal data are drawn from the seed.
    expect(identical.map((point) => [point.parameters.generator, point.parameters.c, point.parameters.init, point.parameters.order])).toEqual([
      ["three-point", 2, "zero", "cyclic"],
      ["three-point", 3, "zero", "cyclic"],
    ]);
    expect(describePlan(experiment).identicalRepeatPoints).toBe(2);
    expect(describePlan(parseExperiment({ repeats: 1, grid: { generator: "three-point", c: 2 } }, "one")).identicalRepeatPoints).toBe(0);
  });
});
