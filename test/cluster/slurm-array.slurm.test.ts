import { execFile, execFileSync, spawnSync } from "node:child_process";
import { promisify } from "node:util";
import { existsSync, readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { SPLIT_MODEL, splitCostOf } from "../../src/sweep/estimate-run-cost.js";
import { planSweep } from "../../src/sweep/plan-sweep.js";
import { shardRepeats } from "../../src/sweep/shard.js";
import { waitUntil } from "../child-processes.js";
import { resultTables, temporaryFolder } from "../helpers.js";

/**
 * A real Slurm job array, written by `perceptron-lab slurm` and run as the docs say, on a private
 * single-node cluster that the test run started itself and names explicitly: .ci/run starts one
 * (scripts/slurm-cluster.sh start DIR) and sets PERCEPTRON_LAB_TEST_SLURM_CONF=DIR/slurm.conf and
 * REQUIRE_SLURM=1, so that this test fails rather than skips when the cluster is missing. It never uses
 * whatever cluster `sinfo` finds (an HPC login node's production queue): without the variable it skips,
 * saying why, and every Slurm command and CLI process it starts is pointed at that file by SLURM_CONF.
 */
const SLURM_CLUSTER_MARK = "# A private test cluster written by perceptron-lab's scripts/slurm-cluster.sh";
const conf = process.env.PERCEPTRON_LAB_TEST_SLURM_CONF;
const why =
  conf === undefined || conf === ""
    ? "PERCEPTRON_LAB_TEST_SLURM_CONF is not set (scripts/slurm-cluster.sh start DIR starts a private cluster; then set it to DIR/slurm.conf)"
    : !existsSync(conf)
      ? `PERCEPTRON_LAB_TEST_SLURM_CONF=${conf}: no such file`
      : !readFileSync(conf, "utf8").startsWith(SLURM_CLUSTER_MARK)
        ? `PERCEPTRON_LAB_TEST_SLURM_CONF=${conf} was not written by scripts/slurm-cluster.sh: this test runs only on the private cluster it starts`
        : null;
const env: NodeJS.ProcessEnv = { ...process.env, SLURM_CONF: conf };
const answer = why === null ? spawnSync("sinfo", ["--noheader", "--format=%t"], { encoding: "utf8", env, timeout: 60_000 }) : null;
const reason = why ?? (answer!.status === 0 && /idle|mix|alloc/.test(answer!.stdout) ? null : `the cluster of ${conf} does not answer (sinfo: ${answer!.error?.message ?? answer!.stderr.trim()})`);
if (reason !== null && process.env.REQUIRE_SLURM === "1") throw new Error(`REQUIRE_SLURM=1, but ${reason}`);
if (reason !== null) console.warn(`Skipping the Slurm job array test: ${reason}`);

const CLI = resolve("dist/cli/perceptron-lab.mjs");

function cli(cwd: string, args: string[]) {
  return spawnSync(process.execPath, [CLI, ...args], { cwd, encoding: "utf8", env, timeout: 300_000, killSignal: "SIGKILL" });
}

function slurmCommand(command: string, args: string[]): string {
  return execFileSync(command, args, { encoding: "utf8", env, timeout: 60_000 }).trim();
}

/** The tasks of this test's jobs still in the queue (any state). */
function queued(jobs: readonly string[]): string[] {
  return slurmCommand("squeue", ["--noheader", "--array", `--jobs=${jobs.join(",")}`, "--format=%i %T"])
    .split("\n")
    .filter((line) => line.trim() !== "");
}

/** The global index of the `k`-th run of shard `index` of `count`, as the sweep splits it. */
function runOfShard(path: string, overrides: string[], index: number, count: number, k: number): number {
  const { experiment } = loadExperiment(path, { overrides });
  // Cut as the tasks cut it: by this version's split model.
  const costOf = splitCostOf(experiment.maxEpochs, SPLIT_MODEL);
  let seen = 0;
  for (const { point, repeat } of shardRepeats(planSweep(experiment), { index, count }, costOf)) if (seen++ === k) return point.firstRun + repeat;
  throw new Error(`shard ${index}/${count} has fewer than ${k + 1} runs`);
}

describe.skipIf(reason !== null)("a Slurm job array (real slurmctld and slurmd)", () => {
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
    // Submitted held (submit.sh passes its arguments to the shards' sbatch), so that shard 4 is cancelled while
    // it certainly waits in the queue. One run of shard 1 waits, in flight, until the test lets it go: shard 1
    // is certainly running when it is checked and cancelled, however slow the machine (the runs submitted
    // again below do not carry the fault).
    const release = join(cwd, "release-shard-1");
    const held = runOfShard(experiment, ["repeats=24"], 1, 4, 3);
    const faults = JSON.stringify({ wait: { runs: [held], until: release } });
    const submitted = execFileSync("bash", [join(work, "submit.sh"), "--hold"], { cwd, encoding: "utf8", env: { ...env, PERCEPTRON_LAB_TEST_FAULTS: faults }, timeout: 60_000 });
    const shardJobs = /^shards: (.+)$/m.exec(submitted)![1]!.split(" ");
    const mergeJob = /^merge: (\d+)$/m.exec(submitted)![1]!;
    expect(shardJobs).toHaveLength(2);

    // Cancel shard 4 while it waits in the queue, and shard 1 while it runs (once its folder is locked).
    slurmCommand("scancel", [`${shardJobs[1]}_1`]);
    slurmCommand("scontrol", ["release", ...shardJobs]);
    await waitUntil(() => existsSync(join(work, "shards", "1", ".perceptron-lab.lock")) && existsSync(join(work, "shards", "1", "manifest.json")));
    const running = cli(cwd, ["check", work]);
    expect(running.stdout).toMatch(/^shard 1\/4: running \(run, pid \d+/m);
    expect(running.status).toBe(1);
    slurmCommand("scancel", [`${shardJobs[0]}_1`]);
    writeFileSync(release, "");

    // The merge job starts once every task has ended (afterany), finds shards 1 and 4 unfinished and fails,
    // listing the commands that run them again.
    await waitUntil(() => queued([...shardJobs, mergeJob]).length === 0);
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
    await Promise.all(commands.map((command) => promisify(execFile)("sbatch", ["--wait", ...command.split(" ").slice(1)], { cwd, encoding: "utf8", env })));
    const checked = cli(cwd, ["check", work]);
    expect(checked.stdout).toContain("4 of 4 shards complete");
    expect(checked.status).toBe(0);
    execFileSync("sbatch", ["--wait", join(work, "merge.sbatch")], { cwd, encoding: "utf8", env, timeout: 300_000 });

    const whole = cli(cwd, ["run", experiment, ...sets, "--out", "whole", "--quiet", "--no-report"]);
    expect(whole.status).toBe(0);
    expect(resultTables(join(cwd, "merged"))).toEqual(resultTables(join(cwd, "whole")));
    expect(readFileSync(join(work, "logs", "shard-1.log"), "utf8")).toMatch(/Interrupted: \d+ of \d+ runs written/);
  });
  it("requeues the task told its time limit is near (--requeue-before: Slurm's USR1 to the batch script), the array's last, and that task alone; it resumes and merges to the unsharded tables", async () => {
    const cwd = temporaryFolder();
    const experiment = resolve("experiments/quick.json");
    const sets = ["--set", "repeats=24"];
    const written = cli(cwd, ["slurm", experiment, "--shards", "2", "--out", "merged", "--time", "00:30:00", "--requeue-before", "600", ...sets]);
    expect(written.status, written.stderr).toBe(0);
    const work = join(cwd, "merged-slurm");
    // The array's LAST task is signalled: its $SLURM_JOB_ID is the array's own id, so a requeue of $SLURM_JOB_ID
    // requeued every task of the array (the audit of 785fd75). One run of shard 2 waits until the test lets it go:
    // the task is certainly running when it is signalled.
    const release = join(cwd, "release-shard-2");
    const faults = JSON.stringify({ wait: { runs: [runOfShard(experiment, ["repeats=24"], 2, 2, 3)], until: release } });
    const submitted = execFileSync("bash", [join(work, "submit.sh")], { cwd, encoding: "utf8", env: { ...env, PERCEPTRON_LAB_TEST_FAULTS: faults }, timeout: 60_000 });
    const shardJob = /^shards: (\d+)$/m.exec(submitted)![1]!;
    const mergeJob = /^merge: (\d+)$/m.exec(submitted)![1]!;
    await waitUntil(() => existsSync(join(work, "shards", "2", ".perceptron-lab.lock")) && existsSync(join(work, "shards", "2", "manifest.json")));
    // What Slurm sends 600 s before the limit, sent now.
    slurmCommand("scancel", ["--signal=USR1", "--batch", `${shardJob}_2`]);
    const log = join(work, "logs", "shard-2.log");
    await waitUntil(() => readFileSync(log, "utf8").includes("stopping, then requeueing"));
    writeFileSync(release, "");
    // Requeued, it waits for Slurm's begin time (two minutes after a requeue, which lets the node finish with
    // the job's first start); the test's cluster starts it sooner, once nothing of that first start is left
    // (started again while its batch step still ends, the job fails at once: seen under load).
    await waitUntil(() => queued([`${shardJob}_2`]).some((line) => line.endsWith("PENDING")));
    expect(readFileSync(log, "utf8")).toContain("shard 2: stopped; requeueing: it resumes when Slurm starts it again");
    expect(readFileSync(join(work, "shards", "2", "manifest.json"), "utf8")).toContain('"status": "interrupted"');
    const jobId = /JobId=(\d+)/.exec(slurmCommand("scontrol", ["show", "job", `${shardJob}_2`]))![1]!;
    await waitUntil(() => spawnSync("pgrep", ["-f", `slurmstepd: \\[${jobId}\\.`]).status === 1 && spawnSync("pgrep", ["-f", join(work, "shards", "2")]).status === 1);
    // The requeue revoked the first start's job credential, and slurmd compares a credential's creation with the
    // revocation in whole seconds: a start within the same second is killed ("Job credential revoked", seen
    // under load: the task then failed at once). Two seconds after it, as Slurm's own begin-time delay does at length.
    await new Promise((resolve) => setTimeout(resolve, 2000));
    slurmCommand("scontrol", ["update", `JobId=${shardJob}_2`, "StartTime=now"]);
    // The merge job waited through the requeue (afterany), and merged once the task had resumed and completed.
    await waitUntil(() => queued([shardJob, mergeJob]).length === 0);
    expect(readFileSync(log, "utf8").match(/ shard 2\/2: job /g)).toHaveLength(2);
    // The other task started once and was never requeued.
    expect(readFileSync(join(work, "logs", "shard-1.log"), "utf8").match(/ shard 1\/2: job /g)).toHaveLength(1);
    expect(readFileSync(join(work, "logs", "shard-1.log"), "utf8")).not.toContain("requeueing");
    const whole = cli(cwd, ["run", experiment, ...sets, "--out", "whole", "--quiet", "--no-report"]);
    expect(whole.status).toBe(0);
    expect(resultTables(join(cwd, "merged"))).toEqual(resultTables(join(cwd, "whole")));
  });
});
