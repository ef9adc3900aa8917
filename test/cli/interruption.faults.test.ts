import { spawnSync } from "node:child_process";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finished, spawnInGroup, waitUntil } from "../child-processes.js";
import { resultTables, temporaryFolder } from "../helpers.js";

/** The real command line, compiled (npm test builds it first). */
function cli(args: readonly string[], env: NodeJS.ProcessEnv = process.env) {
  const result = spawnSync(process.execPath, ["dist/cli/perceptron-lab.mjs", ...args], { encoding: "utf8", env, timeout: 300_000, killSignal: "SIGKILL" });
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

const recorded = (folder: string) => (existsSync(join(folder, "runs.jsonl")) ? readFileSync(join(folder, "runs.jsonl"), "utf8").split("\n").length - 1 : 0);

/** A sweep of a few seconds: small margins in 20 dimensions, the runs of a grid point a few ms each. */
function slowExperiment(folder: string): string {
  const path = join(folder, "slow.json");
  writeFileSync(path, JSON.stringify({ name: "slow", repeats: 12, grid: { n: 1000, d: 20, margin: [0.005, 0.01], offset: [0, 0.2], order: ["cyclic", "shuffle"] } }));
  return path;
}

/**
 * Starts a run, waits until it has written some runs, sends `signal`, and resolves with its exit code and
 * stderr. A second signal (`times` 2) goes once the run has said it is finishing the runs in flight, so that
 * it is the second the run handles however slow the machine.
 */
async function runAndSignal(
  args: readonly string[],
  outDir: string,
  signal: NodeJS.Signals,
  times = 1,
  env: NodeJS.ProcessEnv = process.env,
): Promise<{ code: number | null; stderr: string }> {
  const child = spawnInGroup(process.execPath, ["dist/cli/perceptron-lab.mjs", ...args], { stdio: ["ignore", "ignore", "pipe"], env });
  const result = finished(child);
  let stderr = "";
  child.stderr!.on("data", (chunk) => (stderr += chunk));
  await waitUntil(() => recorded(outDir) > 0, child);
  child.kill(signal);
  if (times === 2) {
    await waitUntil(() => stderr.includes("Interrupted: finishing the runs in flight"), child);
    child.kill(signal);
  }
  const { code } = await result;
  return { code, stderr };
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
    expect(resultTables(outDir)).toEqual(resultTables(reference));
  });

  it("loses at most the runs in flight to SIGKILL, and resumes to identical tables", async () => {
    const outDir = join(folder, "killed");
    const { code } = await runAndSignal(["run", experiment, "--out", outDir, "--quiet"], outDir, "SIGKILL");
    expect(code).toBeNull();
    expect(recorded(outDir)).toBeGreaterThan(0);
    expect(cli(["run", experiment, "--out", outDir, "--resume", "--quiet"]).code).toBe(0);
    expect(resultTables(outDir)).toEqual(resultTables(reference));
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
    expect(resultTables(outDir)).toEqual(resultTables(reference));
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

  it("says so when a file-size limit (ulimit -f) stops a write, instead of dying of SIGXFSZ, and resumes to identical tables", () => {
    const folder = temporaryFolder();
    const [limited, reference] = [join(folder, "limited"), join(folder, "reference")];
    // 20 blocks of 1 KiB: runs.jsonl reaches it within the first batches of margins.json's 1 200 runs.
    const script = 'ulimit -f 20; exec "$0" dist/cli/perceptron-lab.mjs run experiments/margins.json --out "$1" --quiet --no-report';
    const stopped = spawnSync("sh", ["-c", script, process.execPath, limited], { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
    expect(stopped.signal).toBeNull();
    expect(stopped.status).toBe(1);
    expect(stopped.stderr).toMatch(/^Error: \S+runs\.jsonl: write failed: file too large \(EFBIG\)\. What was written is kept: once this is fixed, perceptron-lab run experiments\/margins\.json --out \S+ --resume\n/);
    expect(cli(["run", "experiments/margins.json", "--out", limited, "--resume", "--quiet", "--no-report"]).code).toBe(0);
    expect(cli(["run", "experiments/margins.json", "--out", reference, "--quiet", "--no-report"]).code).toBe(0);
    expect(resultTables(limited)).toEqual(resultTables(reference));
  });
});
