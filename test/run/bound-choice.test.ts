import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { A_PRIORI_KEYS, BOUND_ENTRIES, BOUND_KEYS, boundModes, describeBounds, resolveBounds, type BoundsDeclaration } from "../../src/bounds/bound-choice.js";
import { compareResults } from "../../src/compare/compare-results.js";
import { InputError } from "../../src/vocabulary/input-error.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { executeRun } from "../../src/run/execute-run.js";
import type { RunSpec } from "../../src/run/run-types.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { runSpec, temporaryFolder } from "../helpers.js";

// The worst order's columns join a table only where it is listed (run/table-layout.ts): test/runner/worst-order-columns.test.ts.
const BOUND_COLUMNS = new Set(BOUND_KEYS.filter((key) => key !== "worstOrder").flatMap((key) => BOUND_ENTRIES[key].columns));
const CONDITIONAL = new Set([...BOUND_ENTRIES.tightest.columns, ...BOUND_ENTRIES.freundSchapire.columns]);

/** A spread of runs: separable and noisy planted data, ŵ(0) zero and random, cyclic and shuffled, both separators. */
const SPECS: readonly Partial<RunSpec>[] = [
  { seed: 1 },
  { seed: 2, init: "normal:1", offset: 0.3 },
  { seed: 3, init: "uniform:0.5", order: "shuffle", eta: 0.1 },
  { seed: 4, noise: 0.05, maxEpochs: 50 },
  { seed: 5, overlap: 0.05, maxEpochs: 50, init: "normal:1" },
  { seed: 6, generator: "three-point", c: 3, n: 3, d: 1, margin: null, radius: null, offset: null, noise: null, overlap: null },
  { seed: 7, optimal: false, init: "normal:1" },
];

const run = (spec: Partial<RunSpec>, bounds: BoundsDeclaration) => executeRun(runSpec({ ...spec, bounds })) as unknown as Record<string, unknown>;

describe("bounds: which bounds a run computes", () => {
  it('"all" computes every column; the default leaves the Freund–Schapire and tightest columns empty on separable data only, every other value the same', () => {
    for (const spec of SPECS) {
      const all = run(spec, resolveBounds("all"));
      const lean = run(spec, "default");
      const noisy = (spec.noise ?? 0) > 0 || (spec.overlap ?? 0) > 0;
      for (const [column, value] of Object.entries(all)) {
        const where = `${column} of ${JSON.stringify(spec)}`;
        if (CONDITIONAL.has(column) && !noisy) expect(lean[column], where).toBeNull();
        else if ((column === "bestBound" || column === "bestRatio") && !noisy && value !== null) {
          // best is the smallest of the bounds computed: without the tightest separators it is the separators' own best.
          const own = [lean.plantedBestBound, lean.optimalBestBound].filter((bound): bound is number => typeof bound === "number");
          expect(lean.bestBound, where).toBe(Math.min(...own));
          if (column === "bestBound") expect(lean.bestBound as number, where).toBeGreaterThanOrEqual(value as number);
        } else expect(lean[column], where).toEqual(value);
      }
    }
    // The runs above do reach those columns: the test would not see a lean run that dropped them everywhere.
    expect(run(SPECS[3]!, "default").plantedFreundSchapireBound).toBeGreaterThan(0);
    expect(run(SPECS[0]!, resolveBounds("all")).plantedFreundSchapireBound).toBeGreaterThan(0);
    expect(run(SPECS[1]!, resolveBounds("all")).tightestHuBound).toBeGreaterThan(0);
  });

  it("a list computes its names only: every other bound column empty, best the smallest of those listed, violations counted over them", () => {
    for (const spec of SPECS) {
      const all = run(spec, resolveBounds("all"));
      for (const listed of [["novikoff"], ["snapp", "best"], ["hu", "optimised", "best"], ["tightest", "best"], ["freundSchapire"]] as const) {
        if (listed.includes("tightest" as never) && spec.optimal === false) continue;
        const row = run(spec, resolveBounds(listed));
        const kept = new Set(listed.flatMap((key) => BOUND_ENTRIES[key].columns));
        for (const column of BOUND_COLUMNS) {
          if (!kept.has(column)) expect(row[column], `${column} with ${listed.join(",")}`).toBeNull();
          else if (!column.includes("Best") && !column.startsWith("best")) expect(row[column], `${column} with ${listed.join(",")}`).toEqual(all[column]);
        }
        if (listed.includes("best" as never)) {
          const others = listed.filter((key) => key !== "best");
          const candidates = (separator: string) =>
            others.flatMap((key) => (key === "tightest" ? [] : [row[`${separator}${key.charAt(0).toUpperCase()}${key.slice(1)}Bound`]])).filter((value): value is number => typeof value === "number");
          for (const separator of ["planted", "optimal"]) {
            const values = candidates(separator);
            expect(row[`${separator}BestBound`]).toBe(values.length === 0 ? null : Math.min(...values));
          }
          const overall = [row.plantedBestBound, row.optimalBestBound, row.tightestHuBound, row.tightestOptimisedBound].filter((value): value is number => typeof value === "number");
          expect(row.bestBound).toBe(overall.length === 0 ? null : Math.min(...overall));
        }
        expect(row.updates).toBe(all.updates);
        expect(row.plantedMargin).toBe(all.plantedMargin);
        expect(row.optimalMargin).toBe(all.optimalMargin);
      }
    }
  });

  it("an empty list computes no bound and changes no count", () => {
    for (const spec of SPECS) {
      const all = run(spec, resolveBounds("all"));
      const none = run(spec, []);
      for (const column of BOUND_COLUMNS) expect(none[column], column).toBeNull();
      for (const column of ["updates", "epochs", "converged", "finalErrors", "pocketErrors", "plantedMargin", "optimalMargin", "separable", "expectedUpdates"]) {
        expect(none[column], column).toEqual(all[column]);
      }
      expect(none.violations).toBe(all.expectedUpdates === null ? 0 : all.violations);
    }
  });

  it("the experiment's key: names, \"all\", \"default\", a scalar for a list of one; best alone and tightest without optimal refused", () => {
    const parse = (extra: Record<string, unknown>) => parseExperiment({ grid: { n: 10, d: 2, margin: 0.1 }, ...extra }, "b");
    expect(parse({}).bounds).toBe("default");
    expect(parse({ bounds: "default" }).bounds).toBe("default");
    expect(parse({ bounds: "all" }).bounds).toEqual([...A_PRIORI_KEYS]);
    // The a-posteriori names are computed only where listed: beside "all", beside "default", alone.
    expect(parse({ bounds: ["all", "mistakeSet"] }).bounds).toEqual([...A_PRIORI_KEYS, "mistakeSet"]);
    expect(parse({ bounds: ["mistakeSet", "default", "factors"] }).bounds).toEqual(["default", "factors", "mistakeSet"]);
    expect(parse({ bounds: ["default"] }).bounds).toBe("default");
    expect(parse({ bounds: "factors" }).bounds).toEqual(["factors"]);
    expect(describeBounds(resolveBounds(["all", "factors"]))).toBe("all,factors");
    expect(describeBounds(resolveBounds(["default", "factors"]))).toBe("default,factors");
    const modes = boundModes(resolveBounds(["default", "tightest", "factors"]));
    expect([modes.novikoff, modes.tightest, modes.freundSchapire, modes.factors, modes.mistakeSet]).toEqual(["always", "always", "unlessSeparable", "always", "never"]);
    expect(boundModes(resolveBounds("all")).factors).toBe("never");
    expect(parse({ bounds: "hu" }).bounds).toEqual(["hu"]);
    expect(parse({ bounds: ["best", "novikoff", "novikoff"] }).bounds).toEqual(["novikoff", "best"]);
    expect(parse({ bounds: [] }).bounds).toEqual([]);
    expect(() => parse({ bounds: ["best"] })).toThrow("bounds: [\"best\"] best is the smallest of the bounds listed: list at least one of novikoff, snapp, hu, optimised, tightest beside it");
    expect(() => parse({ bounds: "tightest", optimal: false })).toThrow('bounds: "tightest" tightest searches from the max-margin separator: it needs optimal true');
    expect(() => parse({ bounds: "fs" })).toThrow('bounds: "fs" must be "all", "default", or one or a list of novikoff, snapp, hu, optimised, best, tightest, freundSchapire, factors, mistakeSet');
  });
});

function loaded(source: Record<string, unknown>): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "b".repeat(64) };
}

const SOURCE = { name: "choice", seed: 5, repeats: 3, optimal: false, maxEpochs: 20, grid: { n: 30, d: [2, 4], margin: 0.1, noise: [0, 0.1] } };

describe("bounds across folders: resume, merge and compare know what a folder computed", () => {
  it("the manifest records the choice; resume refuses another one, and a folder written before the key counts as all", async () => {
    const outDir = temporaryFolder();
    await runExperiment(loaded({ ...SOURCE, bounds: ["novikoff", "best"] }), { threads: 1, outDir });
    const manifestPath = join(outDir, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    expect(manifest.resolved.bounds).toEqual(["novikoff", "best"]);
    await expect(runExperiment(loaded(SOURCE), { threads: 1, outDir, resume: true, force: true })).rejects.toThrow(
      `${outDir} holds runs that computed bounds novikoff,best, and the experiment now computes default: pin "bounds" to novikoff,best in the experiment to continue them, or { overwrite: true } to start over`,
    );
    // A manifest of a tool before the key: its runs computed every bound.
    delete manifest.resolved.bounds;
    writeFileSync(manifestPath, JSON.stringify(manifest));
    await expect(runExperiment(loaded(SOURCE), { threads: 1, outDir, resume: true, force: true })).rejects.toThrow("holds runs that computed bounds all, and the experiment now computes default");
  });

  it("merge refuses shards that computed different bounds; compare refuses a bound's column computed on different runs, and compares the others", async () => {
    const shard = (index: number, bounds: unknown) => {
      const outDir = temporaryFolder();
      return runExperiment(loaded({ ...SOURCE, bounds }), { threads: 1, outDir, shard: { index, count: 2 } }).then(() => outDir);
    };
    const [a, b] = [await shard(1, "default"), await shard(2, "default")];
    const c = await shard(2, "default");
    // Same experiment hash, another choice recorded (as a resume with --force could not leave, but an edit could).
    const manifestPath = join(c, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    writeFileSync(manifestPath, JSON.stringify({ ...manifest, resolved: { ...manifest.resolved, bounds: ["novikoff", "best"] } }));
    await expect(mergeShards(temporaryFolder(), [a, c])).rejects.toThrow(`${c} computed bounds novikoff,best, ${a} bounds default: a column would be empty in some runs only; rerun the shards with one "bounds"`);
    const merged = temporaryFolder();
    await mergeShards(merged, [a, b]);

    const all = temporaryFolder();
    await runExperiment(loaded({ ...SOURCE, bounds: "all" }), { threads: 1, outDir: all });
    expect(() => compareResults(merged, all, ["median:ratio.novikoff:5%"])).not.toThrow();
    let refusal: unknown = null;
    try {
      compareResults(merged, all, ["median:plantedFreundSchapireRatio:5%"]);
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(InputError);
    expect((refusal as Error).message).toBe(
      `${merged} and ${all} computed plantedFreundSchapireRatio on different runs (bounds default and all): run both with the same "bounds", or compare other columns`,
    );
  });
});

