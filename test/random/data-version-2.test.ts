import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { experimentFromObject } from "../../src/experiment/experiment-from-object.js";
import { generateData } from "../../src/generators/generate-data.js";
import { executeRun } from "../../src/run/execute-run.js";
import { createDraws } from "../../src/random/random-draws.js";
import { Xoshiro128, xoshiroStateOf } from "../../src/random/xoshiro128.js";
import { ZIGGURAT_EDGES, ZigguratNormal } from "../../src/random/ziggurat-normal.js";
import type { PointParameters } from "../../src/run/run-types.js";
import { rerunExperiment } from "../../src/runner/rerun-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { ksStatistic, plantedPoint, pushRowGeometry, recordedDigestTests, runSpec, temporaryFolder } from "../helpers.js";

// docs/theory.md, "Data versions": version 2 draws with xoshiro128** and a 256-layer ziggurat, and places
// planted points without pow or shuffle. Its digests were recorded when it was made (Node 20.20, before it
// first shipped), hold on Node 24 (CI runs both), and never change.

describe("xoshiro128**", () => {
  it("gives the reference implementation's outputs from the state (1, 2, 3, 4)", () => {
    // xoshiro128starstar.c (Blackman and Vigna): 11520, 0, 5927040, … worked by hand from its next()
    const rng = new Xoshiro128([1, 2, 3, 4]);
    expect([rng.next32(), rng.next32(), rng.next32()]).toEqual([11520, 0, 5927040]);
  });

  it("refuses an all-zero state, and draws uniforms in [0, 1) with 53 bits", () => {
    expect(() => new Xoshiro128([0, 0, 0, 0])).toThrow("xoshiro128**: the state must not be all zero");
    const rng = new Xoshiro128(xoshiroStateOf(1, "data"));
    let odd = 0;
    for (let i = 0; i < 10_000; i++) {
      const u = rng.nextDouble();
      expect(u >= 0 && u < 1).toBe(true);
      if (Math.floor(u * 2 ** 53) % 2 === 1) odd++;
    }
    // the 53rd bit is a random bit: 5000 ± 3·50
    expect(Math.abs(odd - 5000)).toBeLessThan(150);
  });
});

describe("the ziggurat", () => {
  it("has 256 layers of decreasing edges from V/f(R) through R = 3.6541528853610088 down to 0", () => {
    expect(ZIGGURAT_EDGES).toHaveLength(257);
    expect(ZIGGURAT_EDGES[1]).toBe(3.6541528853610088);
    for (let i = 1; i < 256; i++) expect(ZIGGURAT_EDGES[i]!).toBeGreaterThan(ZIGGURAT_EDGES[i + 1]!);
    expect(ZIGGURAT_EDGES[255]).toBeGreaterThan(0.2);
    expect(ZIGGURAT_EDGES[256]).toBe(0);
  });

  it("draws standard normals: moments, tail shares and a Kolmogorov–Smirnov test on 10⁶ draws", () => {
    const count = 1_000_000;
    const values = new Float64Array(count);
    new ZigguratNormal(new Xoshiro128(xoshiroStateOf(2026, "data"))).fill(values);
    let sum = 0;
    let squares = 0;
    let beyond2 = 0;
    let beyondR = 0;
    for (const v of values) {
      sum += v;
      squares += v * v;
      if (Math.abs(v) > 2) beyond2++;
      if (Math.abs(v) > 3.6541528853610088) beyondR++;
    }
    // 5 standard errors each: mean 1/√n, variance √(2/n), a share p: √(p(1−p)/n)
    expect(Math.abs(sum / count)).toBeLessThan(5 / Math.sqrt(count));
    expect(Math.abs(squares / count - 1)).toBeLessThan(5 * Math.sqrt(2 / count));
    const share = (observed: number, p: number) => Math.abs(observed / count - p) / Math.sqrt((p * (1 - p)) / count);
    expect(share(beyond2, 0.04550026389635842)).toBeLessThan(5); // 2(1 − Φ(2))
    expect(share(beyondR, 2.5802e-4)).toBeLessThan(5); // 2(1 − Φ(R)): the tail sampler
    const sorted = values.slice().sort();
    let d = 0;
    for (let i = 0; i < count; i += 1) {
      const F = normalCdf(sorted[i]!);
      d = Math.max(d, F - i / count, (i + 1) / count - F);
    }
    // KS: √n·D below 1.63 at the 1 % level
    expect(Math.sqrt(count) * d).toBeLessThan(1.63);
  });

  it("fills arrays with exactly the values of successive next() calls", () => {
    const a = new ZigguratNormal(new Xoshiro128(xoshiroStateOf(5, "data")));
    const b = new ZigguratNormal(new Xoshiro128(xoshiroStateOf(5, "data")));
    const filled = new Float64Array(200_001);
    a.fill(filled, 0, 70_000);
    a.fill(filled, 70_000);
    // The first index where they differ (-1: none), rather than an expect per value.
    expect(filled.findIndex((value) => !Object.is(value, b.next()))).toBe(-1);
  });
});

/** Φ by the complementary error function's continued fraction / series (to ~1e-14), for the KS test. */
function normalCdf(x: number): number {
  const z = Math.abs(x) / Math.SQRT2;
  let erfc: number;
  if (z < 3) {
    // erf by its Taylor series
    let term = z;
    let sum = z;
    for (let n = 1; n < 200; n++) {
      term *= (-z * z) / n;
      const add = term / (2 * n + 1);
      sum += add;
      if (Math.abs(add) < 1e-17) break;
    }
    erfc = 1 - (2 / Math.sqrt(Math.PI)) * sum;
  } else {
    // Lentz's continued fraction for erfc
    let f = 0;
    for (let n = 60; n >= 1; n--) f = n / 2 / (z + f);
    erfc = Math.exp(-z * z) / Math.sqrt(Math.PI) / (z + f);
  }
  return x >= 0 ? 1 - erfc / 2 : erfc / 2;
}



describe("data version 2: recorded digests of data sets and initial weights", () => {
  const cases: [string, PointParameters, number, string][] = [
    ["planted d 2", plantedPoint({}), 1, "9bc8371d948c0713"],
    ["planted d 3", plantedPoint({ d: 3 }), 2, "97dcb5ea88a009b3"],
    ["planted d 8, offset 0.3", plantedPoint({ d: 8, offset: 0.3 }), 3, "fbe02ddd1964528e"],
    ["planted d 50, n 400, margin 0.01", plantedPoint({ d: 50, n: 400, margin: 0.01 }), 200, "38f9dc0c5ebc3bf4"],
    ["orthonormal n 8", plantedPoint({ generator: "orthonormal", n: 8, d: 8, margin: null, radius: null, offset: null, bias: false }), 5, "1fcf3c977c9e6bd5"],
    ["hadamard n 16", plantedPoint({ generator: "hadamard", n: 16, d: 15, margin: null, radius: null, offset: null }), 6, "3b25588c315b26fa"],
  ];
  recordedDigestTests(2, cases, "a7a05fdf8f880399");
});

describe("data versions 1 and 2 draw from the same law", () => {
  it("planted: the same distributions of point norms, distances to the hyperplane and update counts (KS, 1 % level)", () => {
    // Version 2 places the support pair at random rows instead of shuffling, and draws the radius by the
    // sphere projection instead of pow: the law is the same. Seeds fixed, so the test is deterministic.
    for (const [d, offset, order] of [[10, 0, "cyclic"], [3, 0.3, "shuffle"]] as const) {
      const norms: Record<number, number[]> = { 1: [], 2: [] };
      const distances: Record<number, number[]> = { 1: [], 2: [] };
      const updates: Record<number, number[]> = { 1: [], 2: [] };
      for (const version of [1, 2] as const) {
        for (let seed = 0; seed < 1500; seed++) {
          const data = generateData(plantedPoint({ d, offset }), createDraws(7000 + seed, "data", version));
          pushRowGeometry(data, offset, norms[version]!, distances[version]!);
          if (seed < 300) updates[version]!.push(executeRun(runSpec({ seed: 7000 + seed, n: 60, d, margin: 0.1, offset, order, optimal: false, dataVersion: version })).updates!);
        }
      }
      // 90 000 norms and distances (every row of 1 500 data sets) and 300 runs a version: a real change of
      // law would give a KS statistic far above 1.63 with this many (the radius uniform on [0, room], a
      // wrong law, gives 38 at d 3 and 114 at d 10 on the norms)
      for (const sample of [norms, distances, updates]) expect(ksStatistic(sample[1]!, sample[2]!)).toBeLessThan(1.63);
    }
  });
});

describe("folders and data versions", () => {
  it("resumes only with the data version a folder holds, and reruns a folder of a tool before versions as version 1", async () => {
    const source = { name: "versions", repeats: 2, grid: { n: 30, d: 3, margin: 0.1, init: ["zero", "normal:1"], order: ["cyclic", "shuffle"] } };
    const folder = temporaryFolder();
    const out = join(folder, "old");
    // A folder as tools before data versions wrote it: version 1's runs, no dataVersion anywhere (and no
    // bounds: those tools computed every one, and the rerun must too to find no difference).
    await runExperiment(experimentFromObject({ ...source, dataVersion: 1, bounds: "all" }), { outDir: out, threads: 1 });
    const manifestPath = join(out, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    delete manifest.experiment.source.dataVersion;
    delete manifest.resolved.dataVersion;
    delete manifest.resolved.bounds;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    const unpinned = experimentFromObject(source);
    expect(unpinned.experiment.dataVersion).toBe(3);
    await expect(runExperiment({ ...unpinned, hash: manifest.experiment.hash }, { outDir: out, threads: 1, resume: true, force: true })).rejects.toThrow(
      `${out} holds runs of data version 1, and the experiment now draws with data version 3: pin "dataVersion": 1 in the experiment to continue them, or { overwrite: true } to start over`,
    );
    const rerun = await rerunExperiment(out, join(folder, "rerun"), 2);
    expect(rerun.differences).toEqual([]);
    // the same sweep at the latest version draws other data
    await runExperiment(unpinned, { outDir: join(folder, "latest"), threads: 1 });
    expect(readFileSync(join(folder, "latest", "runs.csv"), "utf8")).not.toBe(readFileSync(join(out, "runs.csv"), "utf8"));
  });
});
