import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/**
 * A real Slurm job array, written by `perceptron-lab slurm` and run as the docs say: .ci/run starts a
 * private single-node cluster (scripts/slurm-cluster.sh) and sets SLURM_CONF and REQUIRE_SLURM=1, so
 * that this test fails rather than skips when the cluster is missing. Elsewhere it runs where sinfo
 * answers, and says why it skipped otherwise.
 */
const slurm = spawnSync("sinfo", ["--noheader", "--format=%t"], { encoding: "utf8" });
const ready = slurm.status === 0 && /idle|mix|alloc/.test(slurm.stdout);
if (!ready && process.env.REQUIRE_SLURM === "1") throw new Error(`REQUIRE_SLURM=1 but no Slurm cluster answers (sinfo: ${slurm.error?.message ?? slurm.stderr.trim()})`);
if (!ready) console.warn("Skipping the Slurm job array test: no Slurm cluster answers here (scripts/slurm-cluster.sh start DIR starts one; then set SLURM_CONF)");

const CLI = resolve("dist/cli/main.js");
const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"];
const tables = (folder: string) => Object.fromEntries(TABLES.map((file) => [file, readFileSync(join(folder, file), "utf8")]));

function cli(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8" });
}

function slurmCommand(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: "utf8" }).trim();
}

/** The tasks of this test's jobs still in the queue (any state). */
function queued(jobs: readonly string[]): string[] {
  return slurmCommand("squeue", ["--noheader", "--array", `--jobs=${jobs.join(",")}`, "--format=%i %T"])
    .split("\n")
    .filter((line) => line.trim() !== "");
}

async function waitFor(what: string, done: () => boolean, seconds = 180): Promise<void> {
  const until = Date.now() + seconds * 1000;
  while (!done()) {
    if (Date.now() > until) throw new Error(`timed out after ${seconds} s waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

describe.skipIf(!ready)("a Slurm job array (real slurmctld and slurmd)", () => {
  it("runs the shards, survives a cancelled running task and a cancelled queued one, reruns them as check says, and merges to the unsharded tables", async () => {
    const cwd = temporaryFolder();
    const experiment = resolve("experiments/quick.json");
    // Shards of a few seconds each on one CPU; 4 shards in arrays of at most 3 task ids: shard 4 is task 1
    // of a second array (SHARD_OFFSET 3), as a sweep beyond Slurm's MaxArraySize would be.
    const sets = ["--set", "repeats=24"];
    const tooBig = cli(cwd, ["slurm", experiment, "--shards", "4", "--cpus", "4096"]);
    expect([tooBig.status, tooBig.stderr.split("\n")[0]]).toEqual([2, expect.stringMatching(/^Error: --cpus 4096: the largest node of this cluster has \d+ CPUs \(sinfo\), so the tasks would pend forever$/)]);
    const written = cli(cwd, ["slurm", experiment, "--shards", "4", "--array-limit", "3", "--out", "merged", ...sets]);
    expect(written.stderr).toBe("");
    expect(written.status).toBe(0);
    const work = join(cwd, "merged-slurm");
    const submitted = execFileSync("bash", [join(work, "submit.sh")], { cwd, encoding: "utf8" });
    const shardJobs = /^shards: (.+)$/m.exec(submitted)![1]!.split(" ");
    const mergeJob = /^merge: (\d+)$/m.exec(submitted)![1]!;
    expect(shardJobs).toHaveLength(2);

    // Cancel shard 4 while it waits in the queue, and shard 1 while it runs (once its folder is locked).
    slurmCommand("scancel", [`${shardJobs[1]}_1`]);
    await waitFor("shard 1 to run", () => existsSync(join(work, "shards", "1", ".perceptron-lab.lock")) && existsSync(join(work, "shards", "1", "manifest.json")));
    const running = cli(cwd, ["check", work]);
    expect(running.stdout).toMatch(/^shard 1\/4: running \(run, pid \d+/m);
    expect(running.status).toBe(1);
    slurmCommand("scancel", [`${shardJobs[0]}_1`]);

    // The merge job starts once every task has ended (afterany), finds shards 1 and 4 unfinished and fails,
    // listing the commands that run them again.
    await waitFor("the merge job to end", () => queued([...shardJobs, mergeJob]).length === 0);
    const log = readFileSync(join(work, "logs", `merge-${mergeJob}.out`), "utf8");
    expect(log).toMatch(/^shard 1\/4: stopped \(interrupted/m);
    expect(log).toMatch(/^shard 4\/4: missing/m);
    expect(log).toContain("2 of 4 shards complete; 1 stopped, 1 missing");
    expect(existsSync(join(cwd, "merged"))).toBe(false);
    // scancel's SIGTERM reached node itself (the script execs it): no process of shard 1 is left.
    expect(spawnSync("pgrep", ["-f", join(work, "shards", "1")]).status).toBe(1);
    expect(readFileSync(join(work, "shards", "1", "manifest.json"), "utf8")).toContain('"status": "interrupted"');

    const commands = log.split("\n").filter((line) => line.startsWith("  sbatch ")).map((line) => line.trim());
    expect(commands).toEqual([
      `sbatch --array=1 ${join(work, "shards.sbatch")}`,
      expect.stringMatching(new RegExp(`^sbatch --array=1 --export=ALL,SHARD_OFFSET=3 --comment=perceptron-lab-[0-9a-f]{12}-3 ${join(work, "shards.sbatch")}$`)),
    ]);
    await Promise.all(commands.map((command) => promisify(execFile)("sbatch", ["--wait", ...command.split(" ").slice(1)], { cwd, encoding: "utf8" })));
    const checked = cli(cwd, ["check", work]);
    expect(checked.stdout).toContain("4 of 4 shards complete");
    expect(checked.status).toBe(0);
    execFileSync("sbatch", ["--wait", join(work, "merge.sbatch")], { cwd, encoding: "utf8" });

    const whole = cli(cwd, ["run", experiment, ...sets, "--out", "whole", "--quiet", "--no-report"]);
    expect(whole.status).toBe(0);
    expect(tables(join(cwd, "merged"))).toEqual(tables(join(cwd, "whole")));
    expect(readFileSync(join(work, "logs", "shard-1.log"), "utf8")).toMatch(/Interrupted: \d+ of \d+ runs written/);
  }, 300_000);
});
