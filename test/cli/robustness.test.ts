import { spawn, spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/** The real command line, compiled (npm test builds it first). */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, ["dist/cli/main.js", ...args], { encoding: "utf8", env });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"];
const tables = (folder: string) => Object.fromEntries(TABLES.map((file) => [file, readFileSync(join(folder, file), "utf8")]));
const recorded = (folder: string) => (existsSync(join(folder, "runs.jsonl")) ? readFileSync(join(folder, "runs.jsonl"), "utf8").split("\n").length - 1 : 0);

/** A sweep of a few seconds: small margins in 20 dimensions, the runs of a grid point a few ms each. */
function slowExperiment(folder: string): string {
  const path = join(folder, "slow.json");
  writeFileSync(path, JSON.stringify({ name: "slow", repeats: 12, grid: { n: 1000, d: 20, margin: [0.005, 0.01], offset: [0, 0.2], order: ["cyclic", "shuffle"] } }));
  return path;
}

/** Starts a run, waits until it has written some runs, sends `signal`, and resolves with its exit code and stderr. */
async function runAndSignal(
  args: readonly string[],
  outDir: string,
  signal: NodeJS.Signals,
  times = 1,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawn(process.execPath, ["dist/cli/main.js", ...args], { stdio: ["ignore", "ignore", "pipe"], env });
  let stderr = "";
  child.stderr.on("data", (chunk) => (stderr += chunk));
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  for (let waited = 0; recorded(outDir) === 0 && waited < 30_000; waited += 20) await new Promise((resolve) => setTimeout(resolve, 20));
  for (let k = 0; k < times; k++) {
    child.kill(signal);
    await new Promise((resolve) => setTimeout(resolve, 30));
  }
  return { code: await exited, stderr };
}

describe("interruption through the command line", () => {
  const folder = temporaryFolder();
  const experiment = slowExperiment(folder);
  const reference = join(folder, "reference");
  const referenceRun = cli(["run", experiment, "--out", reference, "--quiet"]);

  it("stops at Ctrl-C with exit code 130 and the resume command, and resumes to identical tables", async () => {
    expect(referenceRun.code).toBe(0);
    const outDir = join(folder, "interrupted");
    const { code, stderr } = await runAndSignal(["run", experiment, "--out", outDir], outDir, "SIGINT");
    expect(code).toBe(130);
    expect(stderr).toMatch(/Interrupted: \d+ of 96 runs written to /);
    expect(stderr).toContain(`perceptron-lab run ${experiment} --out ${outDir} --resume`);
    expect(JSON.parse(readFileSync(join(outDir, "manifest.json"), "utf8")).status).toBe("interrupted");
    expect(cli(["run", experiment, "--out", outDir])).toMatchObject({
      code: 2,
      stderr: `Error: ${outDir} already holds results of slow (an unfinished sweep): add --resume to continue them, or --overwrite to replace them\n`,
    });
    const resumed = cli(["run", experiment, "--out", outDir, "--resume"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toMatch(/slow: 96 runs \(\d+ reused from before\)/);
    expect(tables(outDir)).toEqual(tables(reference));
  });

  it("loses at most the runs in flight to SIGKILL, and resumes to identical tables", async () => {
    const outDir = join(folder, "killed");
    const { code } = await runAndSignal(["run", experiment, "--out", outDir, "--quiet"], outDir, "SIGKILL");
    expect(code).toBeNull();
    expect(recorded(outDir)).toBeGreaterThan(0);
    expect(cli(["run", experiment, "--out", outDir, "--resume", "--quiet"]).code).toBe(0);
    expect(tables(outDir)).toEqual(tables(reference));
  });

  it("quits at once on a second Ctrl-C, leaving only whole records to resume from", async () => {
    const outDir = join(folder, "twice");
    // Run 12 hangs (a planted fault; it starts the second batch, and the first batches are all handed out
    // at once), so it is in flight when the first Ctrl-C comes after the first runs are written, and the wait
    // for it never ends: the second Ctrl-C must quit. Without the fault the runs in flight could finish, and
    // the process end, before the second signal came (a signal during Node's exit kills it: exit code null).
    const hang = { ...process.env, PERCEPTRON_LAB_TEST_FAULTS: JSON.stringify({ hang: [12] }) };
    const { code, stderr } = await runAndSignal(["run", experiment, "--out", outDir], outDir, "SIGINT", 2, hang);
    expect(code).toBe(130);
    expect(stderr).toContain("Interrupted twice: quitting now. --resume continues from the runs written.");
    expect(cli(["run", experiment, "--out", outDir, "--resume", "--quiet"]).code).toBe(0);
    expect(tables(outDir)).toEqual(tables(reference));
  });

  it("reruns a result folder from its manifest and finds it identical", () => {
    const rerun = cli(["rerun", reference, "--out", join(folder, "rerun")]);
    expect(rerun.code).toBe(0);
    expect(rerun.stdout).toContain("identical: the rerun in");
    writeFileSync(join(reference, "summary.csv"), readFileSync(join(reference, "summary.csv"), "utf8").replace(",planted,", ",changed,"));
    const differs = cli(["rerun", reference, "--out", join(folder, "rerun-2")]);
    expect(differs).toMatchObject({ code: 1 });
    expect(differs.stdout).toContain("differs: summary.csv from line 2");
  });
});

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
});
