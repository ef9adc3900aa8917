import { spawnSync } from "node:child_process";
import { chmodSync, existsSync, mkdirSync, readdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/** The real command line, compiled (npm test builds it first). */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, ["dist/cli/perceptron-lab.mjs", ...args], { encoding: "utf8", env, timeout: 300_000, killSignal: "SIGKILL" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe("usage mistakes of run and rerun", () => {
  const folder = temporaryFolder();

  it("refuses contradictory or out-of-range flags, and huge sweeps without --yes", () => {
    expect(cli(["run", "--resume", "--overwrite"])).toMatchObject({ code: 2, stderr: "Error: --resume and --overwrite: choose one (continue the results, or replace them)\nRun with --help for the options.\n" });
    expect(cli(["run", "--retry-errors"]).stderr).toContain("Error: --retry-errors goes with --resume");
    expect(cli(["run", "--run-timeout", "0"]).stderr).toContain("Error: --run-timeout 0: must be a finite number greater than 0");
    expect(cli(["run", "--worker-memory", "10"]).stderr).toContain("Error: --worker-memory 10: must be a whole number from 64 to 1048576");
    const huge = join(folder, "huge.json");
    writeFileSync(huge, JSON.stringify({ repeats: 5_000_001, grid: { n: 10, d: 2, margin: [0.1, 0.2] } }));
    const refused = cli(["run", huge, "--out", join(folder, "never")]);
    expect(refused).toMatchObject({ code: 2, stderr: `Error: ${huge}: the sweep has 10,000,002 runs, more than 10,000,000: add --yes if you mean it\nRun with --help for the options.\n` });
    expect(existsSync(join(folder, "never"))).toBe(false);
  });

  it("keeps the run tables --tables names (runs.parquet always), and refuses a list that names another or none", () => {
    const run = (out: string, ...more: string[]) => cli(["run", "experiments/quick.json", "--set", "repeats=1", "--out", out, "--quiet", "--no-report", ...more]);
    const only = join(folder, "views-parquet");
    expect(run(only, "--tables", "parquet").code).toBe(0);
    expect(readdirSync(only).sort()).toEqual(["manifest.json", "runs.parquet", "summary.csv", "summary.json"]);
    const csv = join(folder, "views-csv");
    expect(run(csv, "--tables", "csv").code).toBe(0);
    expect(readdirSync(csv).sort()).toEqual(["manifest.json", "runs.csv", "runs.parquet", "summary.csv", "summary.json"]);
    // A resume keeps the folder's tables; --parquet is accepted and changes nothing.
    expect(run(csv, "--resume", "--parquet").code).toBe(0);
    expect(readdirSync(csv).sort()).toEqual(["manifest.json", "runs.csv", "runs.parquet", "summary.csv", "summary.json"]);
    const usage = (text: string) => ({ code: 2, stdout: "", stderr: `Error: ${text}\nRun with --help for the options.\n` });
    expect(run(join(folder, "never"), "--tables", "csv,xml")).toMatchObject(usage('--tables csv,xml: "xml" is not a run table: list any of csv, jsonl, parquet'));
    expect(run(join(folder, "never"), "--tables", ",")).toMatchObject(usage("--tables ,: names no table: list any of csv, jsonl, parquet (runs.parquet is always written)"));
    expect(run(join(folder, "never"), "--tables", "csv", "--parquet-only")).toMatchObject(usage("--parquet-only and --tables csv: --parquet-only keeps runs.parquet alone; choose one"));
    expect(existsSync(join(folder, "never"))).toBe(false);
    // The dry run states each table's disk as the run will keep them.
    const plan = cli(["run", "experiments/quick.json", "--dry-run", "--tables", "parquet"]).stdout;
    expect(plan).toMatch(/estimated disk: about .+ of tables \(runs\.parquet ~.+; runs\.journal, ~.+, is the record while the sweep runs/);
    expect(plan).not.toContain("runs.jsonl ~");
  });

  it("refuses a flag that takes a value given without one (an unset variable), naming it, before anything is written", () => {
    const out = join(folder, "bare");
    const refused = (args: string[], flag: string) =>
      expect(cli(args)).toMatchObject({ code: 2, stdout: "", stderr: `Error: --${flag} needs a value (an unset variable in a script?)\nRun with --help for the options.\n` });
    // Last, or before another flag: yargs alone would run with the default thread count, level or rules.
    refused(["run", "--out", out, "--threads"], "threads");
    refused(["run", "--threads", "--out", out], "threads");
    refused(["run", "--out", out, "--quiet", "--run-timeout"], "run-timeout");
    refused(["compare", out, out, "--alpha"], "alpha");
    refused(["compare", out, out, "--correction", "--json"], "correction");
    refused(["fit", "--data", "x.csv", "--order"], "order");
    refused(["rerun", out, "--threads"], "threads");
    expect(existsSync(out)).toBe(false);
    // yargs' own refusal of an option with no default, --fail included (its defaults are the handler's): a usage mistake.
    expect(cli(["compare", out, out, "--fail", "errors", "--fail"])).toMatchObject({ code: 2, stderr: "Error: Not enough arguments following: fail\nRun with --help for the options.\n" });
    expect(cli(["fit", "--data", "", "--seed", "1"])).toMatchObject({ code: 2, stderr: "Error: --data is empty: name the CSV file (an unset variable in a script?)\nRun with --help for the options.\n" });
    // A value that starts with a dash is a value; after -- nothing is a flag (here, an experiment file's name).
    expect(cli(["run", "--threads", "-1", "--out", out]).stderr).toContain("Error: --threads -1:");
    expect(cli(["run", "--out", out, "--", "--threads"]).stderr).toContain("Error: --threads: cannot read");
    // Weights that start with a minus sign are --init's value, not flags (yargs alone: "Unknown argument: 0").
    const fit = cli(["fit", "--data", "experiments/data/iris-setosa.csv", "--init", "-0.5,1,0,0,0"]);
    expect(fit).toMatchObject({ code: 0, stderr: "" });
    expect(fit.stdout).toContain("init -0.5,1,0,0,0");
  });

  it("arms --run-timeout in whole milliseconds, and refuses what no timer can wait", () => {
    // 2.01 s is 2009.9999999999998 ms: AbortSignal.timeout refused it, and every run became an error row.
    const out = join(folder, "timeout");
    const timed = cli(["run", "--run-timeout", "2.01", "--out", out, "--quiet", "--no-report"]);
    expect(timed.code).toBe(0);
    expect(JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")).counts.errors).toBe(0);
    // Past 2³¹ − 1 ms Node fires a timer after 1 ms: every run timed out.
    for (const [value, shown] of [["3000000", "3000000"], ["1e308", "1e+308"], ["0.0001", "0.0001"]]) {
      expect(cli(["run", "--run-timeout", value!])).toMatchObject({
        code: 2,
        stderr: `Error: --run-timeout ${shown}: must be from 0.001 to 2147483.647 seconds (the longest a timer can wait, about 24.8 days)\nRun with --help for the options.\n`,
      });
    }
  });

  it("holds a run's data arrays to --worker-memory: a run estimated above it is an error row", () => {
    const big = join(folder, "big.json");
    // estimateRunMemory: 8·n·(d + dim) + 8·(5·n + 2·dim) + 128 + 5·n bytes; n = 100 000, d = 100, dim = 101: 157.6 MB, said as 158.
    writeFileSync(big, JSON.stringify({ name: "big", optimal: false, maxEpochs: 1, grid: { n: [100_000], d: 100, margin: 0.1 } }));
    const out = join(folder, "big");
    const result = cli(["run", big, "--out", out, "--worker-memory", "64", "--quiet", "--no-report"]);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain("the run's data need about 158 MB, more than the worker's memory limit of 64 MB (--worker-memory)");
  });

  it("says one line for a folder given as data, a file nested past reason, and reads -- -x.json as a file name", () => {
    expect(cli(["fit", "--data", folder])).toMatchObject({ code: 2, stderr: `Error: ${folder}: is a folder, not a data file (a CSV with a header row)\n` });
    const deep = join(folder, "deep.json");
    writeFileSync(deep, `{"grid":${"[".repeat(10_000)}${"]".repeat(10_000)}}`);
    expect(cli(["run", deep])).toMatchObject({ code: 2, stderr: `Error: ${deep}: nested more than 32 levels deep; an experiment is a few levels deep (grid, lists of values)\n` });
    expect(cli(["run", "--", "-x.json"])).toMatchObject({ code: 2, stderr: "Error: -x.json: cannot read the experiment file (ENOENT)\n" });
    expect(cli(["fit", "--data", "x.csv", "--", "y"])).toMatchObject({ code: 2, stderr: "Error: unexpected argument after --: y\nRun with --help for the options.\n" });
    const tiny = join(folder, "tiny-margin.json");
    writeFileSync(tiny, JSON.stringify({ grid: { n: 10, d: 2, margin: 1e-300 } }));
    expect(cli(["run", tiny])).toMatchObject({
      code: 2,
      stderr: `Error: ${tiny}: grid: no valid grid point, every combination breaks a rule: planted: margin must be at least 1e-12 × radius (float64 places points to about 1e-15 × radius) (1 point)\n`,
    });
  });

  it("refuses to rerun a folder without a manifest, leaving no empty temporary folder behind", () => {
    // The rerun's default --out is a new folder under the system's temporary folder: here, one of our own.
    const tmp = temporaryFolder();
    expect(cli(["rerun", folder], { ...process.env, TMPDIR: tmp })).toMatchObject({
      code: 2,
      stderr: `Error: ${folder}: no manifest.json; rerun needs a result folder written by perceptron-lab run\n`,
    });
    expect(readdirSync(tmp)).toEqual([]);
  });

  it("refuses a result folder that is the working folder through a link, and a linked plots/ or violations/, touching nothing outside", () => {
    // `ln -s . here; run … --out here --overwrite` removed the user's report.html and plots/ in the working folder.
    const work = join(folder, "linked-work");
    mkdirSync(join(work, "plots"), { recursive: true });
    writeFileSync(join(work, "report.html"), "the user's page");
    writeFileSync(join(work, "plots", "updates-vs-bounds.svg"), "the user's picture");
    symlinkSync(".", join(work, "here"));
    const main = join(process.cwd(), "dist/cli/perceptron-lab.mjs");
    const experiment = join(process.cwd(), "experiments/quick.json");
    const linked = spawnSync(process.execPath, [main, "run", experiment, "--out", "here", "--overwrite", "--quiet"], { cwd: work, encoding: "utf8", timeout: 300_000 });
    expect({ code: linked.status, stderr: linked.stderr }).toEqual({
      code: 2,
      stderr: "Error: --out here: is the working folder or one of its ancestors; results go into a folder of their own (say results/<name>)\n",
    });
    expect(readFileSync(join(work, "report.html"), "utf8")).toBe("the user's page");
    expect(readFileSync(join(work, "plots", "updates-vs-bounds.svg"), "utf8")).toBe("the user's picture");

    // A plots/ link planted in a result folder: report and --overwrite refuse it, the folder it points to is untouched.
    const out = join(folder, "planted-link");
    expect(cli(["run", "experiments/quick.json", "--out", out, "--quiet", "--no-report"]).code).toBe(0);
    symlinkSync(join(work, "plots"), join(out, "plots"));
    const refusal = `Error: ${join(out, "plots")} is a symbolic link: the tool writes its plots/ only inside the result folder; remove the link\n`;
    expect(cli(["report", out])).toMatchObject({ code: 2, stderr: refusal });
    expect(cli(["run", "experiments/quick.json", "--out", out, "--overwrite", "--quiet"])).toMatchObject({ code: 2, stderr: refusal });
    expect(readdirSync(join(work, "plots"))).toEqual(["updates-vs-bounds.svg"]);
    expect(readFileSync(join(work, "plots", "updates-vs-bounds.svg"), "utf8")).toBe("the user's picture");
    expect(existsSync(join(out, "runs.csv"))).toBe(true);
  });

  it("keeps a finished sweep's exit code when its report cannot be written, and says how to retry", () => {
    // A folder where a plot's file goes: the report cannot write it (a fault outside the sweep).
    const out = join(folder, "report-fails");
    mkdirSync(join(out, "plots", "updates-vs-bounds.svg"), { recursive: true });
    const result = cli(["run", "experiments/quick.json", "--out", out, "--quiet"]);
    expect(result.code).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^Warning: the report could not be written \\(.*\\); the tables in ${out}/ are complete\\. Try again with: perceptron-lab report ${out}\n$`));
    expect(readFileSync(join(out, "manifest.json"), "utf8")).toContain('"status": "complete"');
  });
});

describe("edges of 0.12.2 (issue 56): each refused in one line with exit 2, or said as it is", () => {
  const folder = temporaryFolder();

  it("refuses a YAML file's second document, a plug-in that exits as it loads, --set.key=value and a choice not offered", () => {
    const yaml = join(folder, "two.yaml");
    writeFileSync(yaml, "name: first\ngrid:\n  n: 10\n  d: 2\n  margin: 0.1\n---\nname: second\n");
    expect(cli(["run", yaml, "--out", join(folder, "never")])).toMatchObject({
      code: 2,
      stderr: `Error: ${yaml}:6:1: invalid YAML: a second document (after "---") where one experiment was expected: put one experiment in a file\n`,
    });
    // A plug-in calling process.exit(0) as it loads: 0.12.2 exited 0 having written nothing.
    writeFileSync(join(folder, "exits.mjs"), "process.exit(0);\nexport default {};\n");
    const experiment = join(folder, "exits.json");
    writeFileSync(experiment, JSON.stringify({ name: "exits", plugins: "./exits.mjs", grid: { n: 10, d: 2, margin: 0.1 } }));
    const exited = cli(["run", experiment, "--out", join(folder, "never")]);
    expect(exited.code).toBe(2);
    expect(exited.stderr).toMatch(/^Error: .*exits\.json: plugins: .*exits\.mjs: the plug-in called process\.exit\(0\) while loading: a plug-in must not end the process; throw an Error instead\n$/);
    expect(existsSync(join(folder, "never"))).toBe(false);
    expect(cli(["run", "--set.grid.margin=0.1", "--dry-run"])).toMatchObject({
      code: 2,
      stderr: "Error: --set.grid.margin=0.1: write --set grid.margin=0.1 (a space or '=' after --set, not a dot)\nRun with --help for the options.\n",
    });
    expect(cli(["compare", folder, folder, "--correction", "foo"])).toMatchObject({ code: 2, stderr: "Error: --correction foo: must be one of holm, bh, none\nRun with --help for the options.\n" });
    // --help and --version return (exit 0) rather than end the process, which the early-exit guard would take for a fault.
    expect(cli(["--version"])).toMatchObject({ code: 0, stderr: "" });
    expect(cli(["run", "--help"])).toMatchObject({ code: 0, stderr: "" });
  });

  it("refuses to plan a grid of millions of combinations without --yes, before walking it, for a run and a dry run", () => {
    const huge = join(folder, "huge.json");
    const range = Array.from({ length: 5000 }, (_, i) => i + 1);
    writeFileSync(huge, JSON.stringify({ name: "huge", grid: { n: range, d: range, margin: 0.1 } }));
    const refusal = `Error: ${huge}: the grids hold 25,000,000 combinations (up to 25,000,000 runs), more than 1,000,000: planning walks each one (about a second a million); add --yes if you mean it\nRun with --help for the options.\n`;
    expect(cli(["run", huge, "--out", join(folder, "huge")])).toMatchObject({ code: 2, stderr: refusal });
    expect(cli(["run", huge, "--dry-run"])).toMatchObject({ code: 2, stdout: "", stderr: refusal });
    expect(existsSync(join(folder, "huge"))).toBe(false);
  });

  it("reruns into a folder an earlier rerun wrote only with --overwrite, which it offers", () => {
    const out = join(folder, "source");
    expect(cli(["run", "experiments/quick.json", "--out", out, "--quiet", "--no-report"]).code).toBe(0);
    // Without --out, an identical rerun's temporary folder is removed (0.12.2 left a copy of the sweep in TMPDIR).
    expect(cli(["rerun", out]).stdout).toBe(`identical: a rerun reproduces ${out}/ byte for byte (runs.csv, runs.jsonl, summary.csv, summary.json, runs.parquet); its temporary folder was removed (--out keeps a rerun)\n`);
    const again = join(folder, "again");
    expect(cli(["rerun", out, "--out", again]).code).toBe(0);
    expect(cli(["rerun", out, "--out", again])).toMatchObject({ code: 2, stderr: `Error: ${again} already holds results: choose another --out, or add --overwrite to replace them\n` });
    const replaced = cli(["rerun", out, "--out", again, "--overwrite"]);
    expect(replaced).toMatchObject({ code: 0 });
    expect(replaced.stdout).toContain("identical:");
  });
});

describe("slurm's refusals and --yes (issue 58): the plan runs as written, or is refused before a script is written", () => {
  const folder = temporaryFolder();
  // No cluster is reached: sinfo answers nothing here (the CLI then skips its CPU check).
  const env = { ...process.env, PATH: `${join(folder, "bin")}:${process.env.PATH}` };
  mkdirSync(join(folder, "bin"));
  writeFileSync(join(folder, "bin", "sinfo"), "#!/bin/sh\nexit 1\n");
  chmodSync(join(folder, "bin", "sinfo"), 0o755);

  it("refuses a lead time without --time or not below it, and a sweep past run's limit without --yes, which it then passes to the tasks", () => {
    const slurm = (args: string[]) => cli(["slurm", "experiments/quick.json", "--shards", "2", ...args], env);
    expect(slurm(["--out", join(folder, "a"), "--requeue-before", "60"])).toMatchObject({ code: 2, stderr: "Error: --requeue-before needs --time: the lead time is counted back from the task's time limit\nRun with --help for the options.\n" });
    expect(slurm(["--out", join(folder, "a"), "--requeue-before", "3600", "--time", "01:00:00"])).toMatchObject({
      code: 2,
      stderr: "Error: --requeue-before 3600: must be below --time 01:00:00 (3600 s), or every task would requeue itself as it starts\nRun with --help for the options.\n",
    });
    expect(existsSync(join(folder, "a-slurm"))).toBe(false);
    const big = ["--set", "repeats=300000", "--out", join(folder, "big")];
    expect(slurm(big)).toMatchObject({ code: 2, stderr: "Error: experiments/quick.json: the sweep has 14,400,000 runs, more than run takes unasked: add --yes if you mean it (the tasks run with --yes)\nRun with --help for the options.\n" });
    expect(slurm([...big, "--yes"]).code).toBe(0);
    expect(readFileSync(join(folder, "big-slurm", "shards.sbatch"), "utf8")).toContain("--resume --quiet --no-report --yes");
  });
});
