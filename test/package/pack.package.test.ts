import { spawnSync } from "node:child_process";
import { copyFileSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/**
 * The package as a user gets it: `npm pack` (of the dist/ that `npm test` built; scripts off, so the
 * build under the other tests' feet is not redone), installed in an empty project, used from ESM
 * JavaScript, type-checked from TypeScript, and its command line run from there.
 */
const root = resolve(".");
const run = (command: string, args: readonly string[], cwd: string) => spawnSync(command, args, { cwd, encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL", env: { ...process.env, npm_config_fund: "false", npm_config_audit: "false" } });

const USE = `
import { experimentFromObject, runExperiment, readResultFolder, fitDataSet, parseDataCsv, parseDataCsvSync, parseInit, InputError } from "perceptron-lab";
const loaded = experimentFromObject({ name: "mine", repeats: 3, grid: { n: 30, d: 3, margin: [0.1, 0.2] } });
let progress = 0;
const report = await runExperiment(loaded, { outDir: "results/mine", threads: 1, onProgress: (done) => { progress = done; } });
const folder = readResultFolder("results/mine");
let updates = 0;
for (const row of folder.runs()) updates += row.updates ?? 0;
const data = await parseDataCsv("x1,x2,label\\n1,2,1\\n-1,-2,-1\\n", "inline.csv");
const init = parseInit("zero");
const fit = fitDataSet(data, { bias: true, eta: 1, init, order: "cyclic", maxEpochs: 100, seed: 1 });
// The library's readers throw InputError, worded with its options (not the command line's flags).
const refused = (error/*: unknown*/) => (error instanceof InputError ? error.message : \`not an InputError: \${String(error)}\`);
let badInit = "no error";
try { parseInit("normal:x"); } catch (error) { badInit = refused(error); }
const sameAsync = JSON.stringify(parseDataCsvSync("x1,x2,label\\n1,2,1\\n-1,-2,-1\\n", "inline.csv")) === JSON.stringify(data);
let again = "no error";
try { await runExperiment(loaded, { outDir: "results/mine", threads: 1 }); } catch (error) { again = refused(error); }
console.log(JSON.stringify({ outcome: report.outcome, runs: report.counts.runs, progress, points: folder.summary.length, status: folder.manifest.status, updates: updates > 0, fit: fit.converged, badInit, sameAsync, again }));
`;

/** A plug-in generator in TypeScript, typed by the light entry a plug-in imports (docs/plugins.md). */
const PLUGIN_TYPES = `
import { defineBound, defineGenerator, mulUp, type BoundContext, type BoundPlugin, type PluginParameters, type PluginDraws } from "perceptron-lab/plugin";
import type { GeneratorPlugin } from "perceptron-lab";
export const line: GeneratorPlugin = defineGenerator({
  name: "line",
  description: "points on a line",
  keys: ["margin"],
  generate({ n, d, margin }: PluginParameters, draws: PluginDraws) {
    const x = Array.from({ length: n }, (_, i) => Array.from({ length: d }, () => (i % 2 === 0 ? 1 : -1) * (margin ?? 1) + 0.1 * draws.normal()));
    return { x, y: x.map((_, i) => (i % 2 === 0 ? 1 : -1)) };
  },
});
// @ts-expect-error: a key no generator may take
defineGenerator({ name: "bad", description: "x", keys: ["overlap"], generate: () => ({ x: [], y: [] }) });
export const bound: BoundPlugin = defineBound({ name: "twiceRadius", title: "2R²", evaluate: (context: BoundContext) => (context.zeroInit ? mulUp(2, context.radiusSquared.hi) : null) });
`;

/** What the published declarations keep out: the tests' planted faults are no option of the library. */
const TYPES = `
import { runExperiment, experimentFromObject } from "perceptron-lab";
const loaded = experimentFromObject({ name: "mine", repeats: 1, grid: { n: 10, d: 2, margin: 0.1 } });
// @ts-expect-error: faults are the tests' own, not the library's
export const never = () => runExperiment(loaded, { faults: { throw: [0] } });
`;

describe("the packed package", () => {
  it("installs in an empty project and works from ESM JavaScript, TypeScript and its command line", () => {
    const work = temporaryFolder();
    const packed = run("npm", ["pack", "--ignore-scripts", "--pack-destination", work], root);
    expect(packed.status, packed.stderr).toBe(0);
    const tarball = readdirSync(work).find((file) => file.endsWith(".tgz"))!;
    const project = join(work, "project");
    expect(run("mkdir", [project], work).status).toBe(0);
    writeFileSync(join(project, "package.json"), JSON.stringify({ name: "user-project", version: "9.9.9", private: true, type: "module" }));
    const installed = run("npm", ["install", join(work, tarball), "--ignore-scripts", "--prefer-offline", "--no-audit", "--no-fund"], project);
    expect(installed.status, installed.stderr).toBe(0);

    writeFileSync(join(project, "use.mjs"), USE);
    const used = run(process.execPath, ["use.mjs"], project);
    expect(used.status, used.stderr).toBe(0);
    expect(JSON.parse(used.stdout)).toEqual({
      outcome: "complete",
      runs: 6,
      progress: 6,
      points: 2,
      status: "complete",
      updates: true,
      fit: true,
      badInit: 'init "normal:x" has no valid scale: use a finite number > 0, as in "normal:1"',
      sameAsync: true,
      again: "results/mine already holds results of mine (6 of 6 runs): add { resume: true } to continue them, or { overwrite: true } to replace them",
    });

    // The same code, typed where JavaScript cannot say it.
    writeFileSync(join(project, "use.ts"), USE.replaceAll("/*: unknown*/", ": unknown"));
    writeFileSync(join(project, "types.ts"), TYPES);
    writeFileSync(join(project, "plugin.ts"), PLUGIN_TYPES);
    writeFileSync(
      join(project, "tsconfig.json"),
      JSON.stringify({ compilerOptions: { module: "nodenext", moduleResolution: "nodenext", target: "es2022", strict: true, noEmit: true, skipLibCheck: true, types: [] }, files: ["use.ts", "types.ts", "plugin.ts"] }),
    );
    const checked = run(process.execPath, [join(root, "node_modules/typescript/bin/tsc"), "-p", "tsconfig.json"], project);
    expect(checked.stdout + checked.stderr).toBe("");
    expect(checked.status).toBe(0);

    const cli = join(project, "node_modules/.bin/perceptron-lab");
    // Its own version, not the project's 9.9.9.
    expect(run(cli, ["--version"], project).stdout.trim()).toBe(JSON.parse(run("npm", ["pkg", "get", "version"], root).stdout));
    // The README's experiments/*.json paths resolve to the shipped files where the project has none.
    const dataset = run(cli, ["dataset", "experiments/margins.json", "--run", "0"], project);
    expect(dataset.status, dataset.stderr).toBe(0);
    expect(dataset.stdout.split("\n")[0]).toMatch(/^x1,.*label$/);
    // The shipped csv experiment finds its data beside it, and YAML needs only the package's dependencies.
    const iris = run(cli, ["run", "experiments/iris.json", "--quiet", "--no-report", "--threads", "1"], project);
    expect(iris.status, iris.stderr).toBe(0);
    expect(iris.stdout.split("\n")[1]).toMatch(/^0\s+csv data\/iris-setosa\.csv\s+150\s+4\s/);
    const yaml = run(cli, ["run", "experiments/quick.yaml", "--dry-run"], project);
    expect(yaml.status, yaml.stderr).toBe(0);
    expect(yaml.stdout).toMatch(/^quick-yaml \(\S+experiments\/quick\.yaml\): 48 grid points × 5 repeats = 240 runs$/m);

    // docs/plugins.md's example, as it says: copied from the package beside the project, run at 1 and 2 threads.
    for (const file of ["gaussian-mixture.mjs", "gaussian-mixture.yaml"]) copyFileSync(join(project, "node_modules/perceptron-lab/docs/examples", file), join(project, file));
    const tables = (out: string) => ["runs.jsonl", "runs.csv", "summary.json", "summary.csv"].map((file) => readFileSync(join(project, out, file), "utf8"));
    for (const threads of ["1", "2"]) {
      const mixture = run(cli, ["run", "gaussian-mixture.yaml", "--quiet", "--no-report", "--threads", threads, "--out", `mixture-${threads}`], project);
      expect(mixture.status, mixture.stderr).toBe(0);
      expect(mixture.stdout).toMatch(/^11\s+gaussian-mixture\s+200\s+20\s+2\s+-\s+0\.05\s/m);
    }
    expect(tables("mixture-2")).toEqual(tables("mixture-1"));
    const manifest = JSON.parse(readFileSync(join(project, "mixture-1", "manifest.json"), "utf8"));
    expect(manifest.resolved.plugins["./gaussian-mixture.mjs"]).toMatchObject({ path: join(project, "gaussian-mixture.mjs"), generators: [{ name: "gaussian-mixture", keys: ["margin", "radius"] }] });
    const rows = tables("mixture-1")[0]!.trim().split("\n").map((line) => JSON.parse(line));
    expect(new Set(rows.map((row) => row.generator))).toEqual(new Set(["gaussian-mixture"]));
    // Separable samples (u separates them): the planted bounds along u hold; noisy ones: Freund–Schapire's.
    expect(rows.some((row) => row.plantedNovikoffBound !== null && row.converged && row.updates <= row.plantedNovikoffBound)).toBe(true);
    expect(rows.filter((row) => row.noise > 0).every((row) => row.tightestFreundSchapireBound !== null || row.plantedFreundSchapireBound !== null)).toBe(true);

    // The plug-in bound's example: its columns in the tables, its largest ratio in the report (three-point refutes it).
    for (const file of ["half-novikoff.mjs", "conjecture.yaml"]) copyFileSync(join(project, "node_modules/perceptron-lab/docs/examples", file), join(project, file));
    const conjecture = run(cli, ["run", "conjecture.yaml", "--quiet", "--out", "conjecture"], project);
    expect(conjecture.status, conjecture.stderr).toBe(0);
    expect(readFileSync(join(project, "conjecture", "runs.csv"), "utf8").split("\n")[0]).toMatch(/,nonFinite,plantedHalfNovikoffBound,optimalHalfNovikoffBound,plantedHalfNovikoffRatio,optimalHalfNovikoffRatio$/);
    expect(readFileSync(join(project, "conjecture", "report.md"), "utf8")).toMatch(/^\| 4 \| three-point \| 3 \| 1 \| 1\.5 \|.*\| 1\.625 \| 1\.625 \| 1\.231 \|$/m);
  });
});
