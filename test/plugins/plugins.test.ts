import { readFileSync, renameSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { InputError } from "../../src/vocabulary/input-error.js";
import { loadExperiment, parseExperiment } from "../../src/experiment/load-experiment.js";
import { findGenerator, generatorEntry } from "../../src/generators/generator-registry.js";
import { defineGenerator } from "../../src/plugins/plugin-api.js";
import { pluginGeneratorEntry } from "../../src/plugins/plugin-generator-entry.js";
import { createDraws } from "../../src/random/random-draws.js";
import { mergeShards } from "../../src/runner/merge-shards.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { planSweep } from "../../src/sweep/plan-sweep.js";
import { resultTables, runSpec, temporaryFolder } from "../helpers.js";

/**
 * A plug-in generator as a user writes one (docs/plugins.md), without importing the package: two clusters
 * at ±margin along the first axis, each point jittered by a uniform of half-width `spread`; the first axis
 * separates them where margin > spread. Each test writes it under its own name (a process loads a file once).
 */
function pluginSource(name: string, body = ""): string {
  return `export default {
  kind: "generator",
  name: ${JSON.stringify(name)},
  description: "two clusters at ±margin on the first axis",
  keys: ["margin"],
  required: ["margin"],
  exclude: ({ margin }) => (margin > 5 ? "margin above 5" : null),
  generate({ n, d, margin }, draws) {
    ${body}
    const x = [];
    const y = [];
    for (let i = 0; i < n; i++) {
      const label = draws.uniform() < 0.5 ? -1 : 1;
      y.push(label);
      x.push(Array.from({ length: d }, (_, j) => (j === 0 ? label * margin : 0) + (draws.uniform() - 0.5) * 0.5));
    }
    return { x, y, planted: margin > 0.25 ? { w: [1, ...Array(d - 1).fill(0)], b: 0 } : null };
  },
};
`;
}

let names = 0;
/** A study folder: the plug-in (under a fresh name) beside an experiment that names it. */
function study(experiment: (name: string) => Record<string, unknown>, body = ""): { folder: string; file: string; plugin: string; name: string } {
  const folder = temporaryFolder();
  const name = `clusters-${process.pid}-${names++}`;
  const plugin = join(folder, "clusters.mjs");
  writeFileSync(plugin, pluginSource(name, body));
  const file = join(folder, "study.json");
  writeFileSync(file, JSON.stringify({ plugins: "./clusters.mjs", ...experiment(name) }));
  return { folder, file, plugin, name };
}

const sweep = (name: string) => ({ name: "study", seed: 5, repeats: 3, optimal: false, grid: { generator: name, n: 30, d: [2, 4], margin: [0.5, 1], noise: [0, 0.1] } });

describe("plug-in generators (docs/plugins.md)", () => {
  it("are loaded with their experiment, recorded in its manifest, and run like the built-in ones: the same tables at 1 and 2 threads", async () => {
    const { folder, file, plugin, name } = study(sweep);
    const loaded = loadExperiment(file);
    expect(loaded.experiment.plugins!["./clusters.mjs"]).toMatchObject({ path: plugin, generators: [{ name, keys: ["margin"], required: ["margin"], seeded: true, bias: true }] });
    expect(planSweep(loaded.experiment).pointCount).toBe(8);
    const one = join(folder, "one");
    const two = join(folder, "two");
    const report = await runExperiment(loaded, { outDir: one, threads: 1 });
    expect(report.counts).toMatchObject({ runs: 24, errors: 0, violatingRuns: 0 });
    await runExperiment(loadExperiment(file), { outDir: two, threads: 2 });
    expect(resultTables(two)).toEqual(resultTables(one));
    const manifest = JSON.parse(readFileSync(join(one, "manifest.json"), "utf8"));
    expect(manifest.resolved.plugins["./clusters.mjs"].sha256).toMatch(/^[0-9a-f]{64}$/);
    const rows = [...readResultFolder(one).runs()];
    for (const row of rows) expect(row).toMatchObject({ generator: name, data: null, radius: null, offset: null, overlap: null, c: null, status: "ok" });
    // Separable at noise 0 (the first axis): the perceptron converges, and the planted bounds are the tool's.
    const clean = rows.filter((row) => row.noise === 0);
    expect(clean.every((row) => row.converged && row.separable && row.plantedNovikoffBound! >= row.updates!)).toBe(true);
    // Label noise is a transform of its data: flipped labels make the planted axis no separator, and the Freund–Schapire bounds apply.
    const noisy = rows.filter((row) => row.noise === 0.1);
    expect(noisy.some((row) => row.wrongSide! > 0)).toBe(true);
    expect(noisy.every((row) => row.plantedFreundSchapireBound !== null)).toBe(true);
  });

  it("draw only from the run's stream: noise 0 is the noiseless data to the bit, and the seed makes the data", () => {
    const { file, name } = study(sweep);
    loadExperiment(file);
    const entry = generatorEntry(name);
    const p = { ...runSpec(), generator: name, n: 12, d: 3, margin: 1, radius: null, offset: null, noise: 0, overlap: null, c: null };
    const a = entry.generate(p, createDraws(11, "data", 3), undefined, (length) => new Float64Array(length));
    const b = entry.generate(p, createDraws(11, "data", 3), undefined, (length) => new Float64Array(length));
    expect(b).toEqual(a);
    const noisy = entry.generate({ ...p, noise: 0.5 }, createDraws(11, "data", 3), undefined, (length) => new Float64Array(length));
    expect(noisy.x).toEqual(a.x);
    expect([...noisy.y].some((label, i) => label !== a.y[i])).toBe(true);
    expect(entry.generate(p, createDraws(12, "data", 3), undefined, (length) => new Float64Array(length)).x).not.toEqual(a.x);
    // A rule the plug-in gives skips the point, with its reason.
    expect(entry.exclusionReason({ ...p, margin: 6 })).toBe(`${name}: margin above 5`);
  });

  it("refuse a key their generator does not take, a name no plug-in defines, and a plug-in of another experiment", () => {
    const { file, folder, name } = study((generator) => ({ grid: { generator, n: 10, d: 2, margin: 1, offset: 0.5 } }));
    expect(() => loadExperiment(file)).toThrow(new InputError(`${file}: grid.offset: the ${name} generator does not take offset; ${name} takes n, d, margin, noise`));
    writeFileSync(file, JSON.stringify({ plugins: "./clusters.mjs", grid: { generator: "clusterz", n: 10, d: 2, margin: 1 } }));
    expect(() => loadExperiment(file)).toThrow(new InputError(`${file}: grid.generator: "clusterz" must be one of planted, orthonormal, hadamard, three-point, csv, or a generator of the experiment's plugins (${name})`));
    // Registered in this process by the experiment above, but not among this one's plugins.
    expect(findGenerator(name)).toBeDefined();
    expect(() => parseExperiment({ grid: { generator: name, n: 10, d: 2, margin: 1 } }, "x", "x.json", { dataFolder: folder })).toThrow(
      new InputError(`x.json: grid.generator: "${name}" must be one of planted, orthonormal, hadamard, three-point, csv`),
    );
    writeFileSync(file, JSON.stringify({ plugins: "./clusters.mjs", grid: { generator: name, n: 10, d: 2 } }));
    expect(() => loadExperiment(file)).toThrow(new InputError(`${file}: grid.margin is required by the ${name} generator`));
  });

  it("refuse a file that cannot be loaded or defines no generator, in one line naming it", () => {
    const folder = temporaryFolder();
    const file = join(folder, "e.json");
    const write = (plugin: string, text: string) => {
      writeFileSync(join(folder, plugin), text);
      writeFileSync(file, JSON.stringify({ plugins: ["./ok.mjs", `./${plugin}`], grid: { n: 10, d: 2, margin: 0.1 } }));
    };
    writeFileSync(join(folder, "ok.mjs"), pluginSource(`ok-${process.pid}`));
    write("none.mjs", "export const x = 1;\n");
    expect(() => loadExperiment(file)).toThrow(/^.*e\.json: plugins\[1\]: .*none\.mjs exports no generator or bound: its default export must be defineGenerator/);
    write("broken.mjs", "export default {;\n");
    expect(() => loadExperiment(file)).toThrow(/plugins\[1\]: .*broken\.mjs: cannot load the plug-in \(/);
    write("bad.mjs", 'export default { name: "Bad Name", description: "x", generate() {} };\n');
    expect(() => loadExperiment(file)).toThrow(/plugins\[1\]: .*bad\.mjs: defineGenerator \(Bad Name\): name must be lower-case letters/);
    write("planted.mjs", 'export default { name: "planted", description: "x", generate() {} };\n');
    expect(() => loadExperiment(file)).toThrow(/plugins\[1\]: .*planted\.mjs: planted is a built-in generator's name/);
    writeFileSync(file, JSON.stringify({ plugins: "./missing.mjs", grid: { n: 10, d: 2, margin: 0.1 } }));
    expect(() => loadExperiment(file)).toThrow(/e\.json: plugins: .*missing\.mjs: cannot read the plug-in \(ENOENT\)/);
    // Two definitions of one name in one file: 0.12.2 registered the first and dropped the second in silence.
    const twin = `twin-${process.pid}`;
    write("twice.mjs", `const g = { name: "${twin}", description: "x", generate() {} };\nexport default [g, { ...g, description: "y" }];\n`);
    expect(() => loadExperiment(file)).toThrow(new RegExp(`plugins\\[1\\]: .*twice\\.mjs: two generators are named ${twin}: give each its own name$`));
    // A plug-in that ends the process as it loads (a CI job would read exit 0 and nothing written) is refused.
    write("exits.mjs", "process.exit(0);\nexport default {};\n");
    expect(() => loadExperiment(file)).toThrow(/plugins\[1\]: .*exits\.mjs: the plug-in called process\.exit\(0\) while loading: a plug-in must not end the process; throw an Error instead$/);
  });

  it("check what a plug-in returns: its shape, its labels, and that its planted separator separates", () => {
    const entry = (generate: () => unknown) =>
      pluginGeneratorEntry({ name: "g", description: "g", keys: [], required: [], seeded: true, bias: true }, defineGenerator({ name: "g", description: "g", generate: generate as never }));
    const p = { ...runSpec(), generator: "g", n: 2, d: 2, margin: null, radius: null, offset: null, noise: 0, overlap: null, c: null };
    const run = (generate: () => unknown) => entry(generate).generate(p, createDraws(1, "data", 3), undefined, (length) => new Float64Array(length));
    expect(run(() => ({ x: [1, 0, -1, 0], y: [1, -1], planted: { w: [1, 0] } }))).toMatchObject({ n: 2, d: 2, x: Float64Array.of(1, 0, -1, 0), y: Int8Array.of(1, -1), planted: { b: 0 } });
    expect(run(() => ({ x: [[1, 0], [-1, 0]], y: [1, -1] })).x).toEqual(Float64Array.of(1, 0, -1, 0));
    expect(() => run(() => ({ x: [1, 0, -1], y: [1, -1] }))).toThrow("the g generator (a plug-in) returned x of 3 values for n = 2, d = 2");
    expect(() => run(() => ({ x: [[1, 0], [-1]], y: [1, -1] }))).toThrow("returned x[1] of 1 numbers for d = 2");
    expect(() => run(() => ({ x: [1, 0, NaN, 0], y: [1, -1] }))).toThrow("returned a coordinate of point 1 that is not a finite number");
    expect(() => run(() => ({ x: [1, 0, -1, 0], y: [1, 0] }))).toThrow("returned label 0 for point 1 (labels are −1 or +1)");
    expect(() => run(() => ({ x: [1, 0, -1, 0], y: [1, -1], planted: { w: [0, 1] } }))).toThrow("returned a planted separator that does not separate point 0");
  });

  it("make a run that fails in the plug-in an error row with its message; the others run", async () => {
    const { folder, file } = study((generator) => ({ seed: 2, optimal: false, grid: { generator, n: 8, d: 2, margin: [0.5, 1] } }), 'if (margin === 1) throw new Error("no margin 1 here");');
    const outDir = join(folder, "out");
    const report = await runExperiment(loadExperiment(file), { outDir, threads: 1 });
    expect(report.counts).toMatchObject({ runs: 2, errors: 1 });
    const rows = [...readResultFolder(outDir).runs()];
    expect(rows.map((row) => [row.margin, row.status])).toEqual([[0.5, "ok"], [1, "error"]]);
    expect(rows[1]!.error).toContain("no margin 1 here");
  });

  it("resume refuses a plug-in that changed; merge plans from the manifests without the file", async () => {
    const { folder, file, plugin, name } = study(sweep);
    const shards = [join(folder, "s1"), join(folder, "s2")];
    for (const [k, outDir] of shards.entries()) await runExperiment(loadExperiment(file), { outDir, threads: 1, shard: { index: k + 1, count: 2 } });
    const whole = join(folder, "whole");
    await runExperiment(loadExperiment(file), { outDir: whole, threads: 1 });
    // The plug-in file is gone: merge needs only what the manifests recorded of it.
    renameSync(plugin, `${plugin}.away`);
    await mergeShards(join(folder, "merged"), shards);
    expect(resultTables(join(folder, "merged"))).toEqual(resultTables(whole));
    renameSync(`${plugin}.away`, plugin);
    // A process loads a plug-in file once, so the edit is made where resume sees it: the SHA-256 the folder recorded.
    const manifestPath = join(whole, "manifest.json");
    const manifest = JSON.parse(readFileSync(manifestPath, "utf8"));
    manifest.resolved.plugins["./clusters.mjs"].sha256 = "0".repeat(64);
    writeFileSync(manifestPath, JSON.stringify(manifest));
    await expect(runExperiment(loadExperiment(file), { outDir: whole, threads: 1, resume: true })).rejects.toThrow(
      new InputError(`${whole}: plug-in ./clusters.mjs changed since the sweep was run (sha256 000000000000…, now ${loadExperiment(file).experiment.plugins!["./clusters.mjs"]!.sha256.slice(0, 12)}…): its runs cannot be reused; restore the file, or start over with { overwrite: true }`),
    );
    expect(name).toMatch(/^clusters-/);
  });

  it("are documented with the shipped examples as they are (docs/plugins.md shows docs/examples' files, which the package test runs)", () => {
    const page = readFileSync("docs/plugins.md", "utf8");
    const blocks = (language: string) => [...page.matchAll(new RegExp("^```" + language + "\\n([\\s\\S]*?)^```$", "gm"))].map((match) => match[1]);
    expect(blocks("js")).toEqual(["gaussian-mixture.mjs", "half-novikoff.mjs"].map((file) => readFileSync(`docs/examples/${file}`, "utf8")));
    expect(blocks("yaml")).toEqual(["gaussian-mixture.yaml", "conjecture.yaml"].map((file) => readFileSync(`docs/examples/${file}`, "utf8")));
  });
});

/** A plug-in bound as a user writes one, without importing the package: ½(R/γ)², a conjecture the three-point family refutes. */
function boundSource(name: string, evaluate = "zeroInit ? (radiusSquared.hi * normSquared.hi) / (margin.lo * margin.lo) / 2 * (1 + 1e-15) : null"): string {
  return `export default [{
  kind: "bound",
  name: ${JSON.stringify(name)},
  title: "half of Novikoff",
  evaluate: ({ zeroInit, radiusSquared, normSquared, margin }) => ${evaluate},
}];
`;
}

/** A study folder with a plug-in bound under a fresh name. */
function boundStudy(experiment: Record<string, unknown>, evaluate?: string): { folder: string; file: string; plugin: string; name: string } {
  const folder = temporaryFolder();
  const name = `half${process.pid}x${names++}`;
  const plugin = join(folder, "bound.mjs");
  writeFileSync(plugin, boundSource(name, evaluate));
  const file = join(folder, "study.json");
  writeFileSync(file, JSON.stringify({ plugins: "./bound.mjs", ...experiment }));
  return { folder, file, plugin, name };
}

const conjecture = {
  name: "conjecture",
  seed: 4,
  repeats: 3,
  optimal: true,
  grid: [
    { generator: "planted", n: 40, d: [2, 5], margin: [0.1, 0.3] },
    { generator: "three-point", c: [1.5, 3] },
  ],
};

describe("plug-in bounds (docs/plugins.md)", () => {
  it("add their columns after the tool's own, in every table, the same at 1 and 2 threads, through shards and merge without the file", async () => {
    const { folder, file, plugin, name } = boundStudy(conjecture);
    const stem = name[0]!.toUpperCase() + name.slice(1);
    const columns = [`planted${stem}Bound`, `optimal${stem}Bound`, `planted${stem}Ratio`, `optimal${stem}Ratio`];
    const loaded = loadExperiment(file);
    expect(loaded.experiment.plugins!["./bound.mjs"]).toMatchObject({ generators: [], bounds: [{ name, title: "half of Novikoff" }] });
    const one = join(folder, "one");
    const report = await runExperiment(loaded, { outDir: one, threads: 1 });
    // A plug-in's bound is the user's hypothesis: a converged run above it is no violation of the tool's own.
    expect(report.counts).toMatchObject({ runs: 18, errors: 0, violatingRuns: 0 });
    await runExperiment(loadExperiment(file), { outDir: join(folder, "two"), threads: 2 });
    expect(resultTables(join(folder, "two"))).toEqual(resultTables(one));
    const tables = resultTables(one);
    expect(tables["runs.csv"]!.split("\n")[0]!.split(",").slice(-6)).toEqual(["violations", "nonFinite", ...columns]);
    const rows = tables["runs.jsonl"]!.trim().split("\n").map((line) => JSON.parse(line));
    expect(Object.keys(rows[0]).slice(-5)).toEqual([...columns, "check"]);
    for (const row of rows) {
      // From ŵ(0) = 0 its value is half of Novikoff's (up to its own rounding), from either separator.
      expect(row[columns[0]!]).toBeCloseTo(row.plantedNovikoffBound / 2, 9);
      expect(row[columns[1]!]).toBeCloseTo(row.optimalNovikoffBound / 2, 9);
      expect(row[columns[3]!]).toBeCloseTo(row.updates / row[columns[1]!], 12);
    }
    // Three-point makes 1 + ⌊c²/2⌋ updates: above half of (R/γ)² = (1 + c²)/2 at c = 1.5 (2 > 1.625), and the ratio shows it.
    const summary = JSON.parse(tables["summary.json"]!);
    const threePoint = summary.find((row: { c: number | null }) => row.c === 1.5);
    expect(Object.keys(threePoint).slice(-4)).toEqual(columns);
    expect(threePoint[columns[3]!].max).toBeCloseTo(2 / 1.625, 9);
    expect(threePoint[columns[1]!].median).toBeCloseTo(1.625, 9);
    // The report names them, with the largest ratio.
    await writeReport(one);
    const markdown = readFileSync(join(one, "report.md"), "utf8");
    expect(markdown).toContain("| half of Novikoff (plug-in) | half of Novikoff\\* (plug-in) | updates / half of Novikoff (max) |");
    expect(readFileSync(join(one, "report.html"), "utf8")).toContain(`bound ${name} (half of Novikoff); a plug-in bound is not in best nor counted as a violation`);

    const shards = [join(folder, "s1"), join(folder, "s2")];
    for (const [k, outDir] of shards.entries()) await runExperiment(loadExperiment(file), { outDir, threads: 1, shard: { index: k + 1, count: 2 }, parquet: true });
    renameSync(plugin, `${plugin}.away`);
    await mergeShards(join(folder, "merged"), shards, { parquet: true, parquetOnly: true });
    expect(readResultFolder(join(folder, "merged")).summary).toEqual(summary);
    // runs.parquet holds the columns too: its rows read back as runs.jsonl's.
    expect([...readResultFolder(join(folder, "merged")).runs()].map((row) => JSON.stringify(row))).toEqual(rows.map(({ check, ...row }) => JSON.stringify(row)));
    renameSync(`${plugin}.away`, plugin);
  });

  it("resume an interrupted sweep to the same tables", async () => {
    const { folder, file } = boundStudy(conjecture);
    const whole = join(folder, "whole");
    await runExperiment(loadExperiment(file), { outDir: whole, threads: 1 });
    const outDir = join(folder, "cut");
    const controller = new AbortController();
    const cut = await runExperiment(loadExperiment(file), { outDir, threads: 1, signal: controller.signal, onProgress: (done) => done >= 5 && controller.abort() });
    expect(cut.outcome).toBe("interrupted");
    await runExperiment(loadExperiment(file), { outDir, threads: 2, resume: true });
    expect(resultTables(outDir)).toEqual(resultTables(whole));
  });

  it("make a run whose plug-in bound returns no bound an error row saying so; refuse a name that is a built-in bound's", async () => {
    const { folder, file, name } = boundStudy({ seed: 1, optimal: false, grid: { n: 10, d: 2, margin: 0.2 } }, "-1");
    const outDir = join(folder, "out");
    const report = await runExperiment(loadExperiment(file), { outDir, threads: 1 });
    expect(report.counts).toMatchObject({ runs: 1, errors: 1 });
    expect([...readResultFolder(outDir).runs()][0]!.error).toBe(`the ${name} bound (a plug-in) returned -1: a bound is a number ≥ 0, or null where it does not apply`);
    writeFileSync(join(folder, "snapp.mjs"), 'export default { kind: "bound", name: "snapp", title: "x", evaluate: () => 1 };\n');
    writeFileSync(join(folder, "again.json"), JSON.stringify({ plugins: "./snapp.mjs", grid: { n: 10, d: 2, margin: 0.2 } }));
    expect(() => loadExperiment(join(folder, "again.json"))).toThrow(/plugins: .*snapp\.mjs: snapp is a built-in bound's name/);
  });
});
