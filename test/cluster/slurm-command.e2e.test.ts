import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { shardFolder } from "../../src/cluster/cluster-layout.js";
import { writeSlurmJob } from "../../src/cluster/write-slurm-job.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { finished, spawnInGroup, waitUntil } from "../child-processes.js";
import { resultTables, temporaryFolder } from "../helpers.js";

/** The slurm and check commands' refusals, as a user meets them: each a process of its own (so in the e2e tier). */
describe("slurm and check on the command line", () => {
  it("refuse what cannot work, in one line, with exit code 2", () => {
    const cwd = temporaryFolder();
    const cli = (args: string[]) => spawnSync(process.execPath, [resolve("dist/cli/perceptron-lab.mjs"), ...args], { cwd, encoding: "utf8", env: { ...process.env, PATH: "/nonexistent" } });
    const quick = resolve("experiments/quick.json");
    for (const [args, message] of [
      [["slurm", quick, "--shards", "0"], "Error: --shards 0: must be a whole number from 1 to 10000000"],
      [["slurm", "-", "--shards", "2"], "Error: slurm needs the experiment as a file (the shards' jobs read it), not standard input"],
      [["slurm", quick, "--shards", "2", "--time", "4 hours"], "Error: --time 4 hours: use letters, digits and _ . : , + - only (it goes into an #SBATCH line)"],
      [["slurm", quick, "--shards", "2", "--requeue-before", "0"], "Error: --requeue-before 0: must be a whole number from 1 to 65535"],
      [["slurm", quick, "--shards", "2", "--out", "."], "Error: --out .: is the working folder or one of its ancestors; results go into a folder of their own (say results/<name>)"],
      [["check", join(cwd, "nowhere")], `Error: ${join(cwd, "nowhere")}: no cluster.json; check reads a work folder written by perceptron-lab slurm`],
    ] as const) {
      const result = cli([...args]);
      expect([args.join(" "), result.stderr.split("\n")[0], result.status]).toEqual([args.join(" "), message, 2]);
    }
    // Written as asked, and told how to submit, watch and rerun.
    const written = cli(["slurm", quick, "--shards", "3", "--out", "merged"]);
    expect(written.status).toBe(0);
    expect(written.stdout).toContain(`Submit:       bash ${join(cwd, "merged-slurm", "submit.sh")}\n`);
    expect(readFileSync(join(cwd, "merged-slurm", "cluster.json"), "utf8")).toContain('"shards": 3');
  });

  it("merge.sbatch hands the shards to merge through a list file, and merge --shard-list reads one", async () => {
    const base = temporaryFolder();
    const cli = (args: string[], cwd = base) => spawnSync(process.execPath, [resolve("dist/cli/perceptron-lab.mjs"), ...args], { cwd, encoding: "utf8" });
    const loaded = loadExperiment(resolve("experiments/quick.json"));
    const work = join(base, "work");
    const job = writeSlurmJob(loaded, { shards: 3, out: join(base, "merged"), work });
    // The array's tasks, as the shard script runs them (run --shard k/3 into the work folder's shards/k).
    for (const k of [1, 2, 3]) await runExperiment(loaded, { threads: 1, outDir: shardFolder(work, k), shard: { index: k, count: 3 } });
    // The merge job itself (check sees every shard complete; no squeue needed), then the unsharded sweep to compare.
    const merged = spawnSync("bash", [job.layout.mergeScript], { cwd: base, encoding: "utf8" });
    expect(merged.status, merged.stderr).toBe(0);
    expect(readFileSync(join(work, "merge-shards.txt"), "utf8")).toBe([1, 2, 3].map((k) => `${shardFolder(work, k)}\n`).join(""));
    expect(cli(["run", resolve("experiments/quick.json"), "--out", join(base, "whole"), "--quiet", "--no-report"]).status).toBe(0);
    expect(resultTables(join(base, "merged"))).toEqual(resultTables(join(base, "whole")));
    // By hand: arguments and a list together (blank lines skipped), and the refusals.
    const list = join(base, "list.txt");
    writeFileSync(list, `${shardFolder(work, 2)}\n\n${shardFolder(work, 3)}\n`);
    expect(cli(["merge", join(base, "again"), shardFolder(work, 1), "--shard-list", list, "--quiet", "--no-report"]).status).toBe(0);
    expect(resultTables(join(base, "again"))).toEqual(resultTables(join(base, "whole")));
    writeFileSync(join(base, "empty.txt"), "\n");
    expect(cli(["merge", join(base, "never"), "--shard-list", join(base, "empty.txt")])).toMatchObject({ status: 2, stderr: `Error: ${join(base, "empty.txt")}: the shard list names no folder (one a line)\n` });
    expect(cli(["merge", join(base, "never")]).stderr.split("\n")[0]).toBe("Error: merge needs the shard folders: as arguments, or one a line in a file given to --shard-list");
  });
  it("a shard task told its time limit is near (--requeue-before: Slurm's USR1) stops, writes what it ran and requeues itself; started again, it resumes to the whole sweep's tables", async () => {
    const base = temporaryFolder();
    const experiment = join(base, "long.json");
    writeFileSync(experiment, JSON.stringify({ name: "long", repeats: 40_000, optimal: false, grid: { n: 100, d: 10, margin: 0.1 } }));
    const work = join(base, "work");
    const job = writeSlurmJob(loadExperiment(experiment), { shards: 1, out: join(base, "merged"), work, time: "01:00:00", requeueBefore: 120 });
    const script = readFileSync(job.layout.shardScript, "utf8");
    expect(script).toContain("#SBATCH --signal=B:USR1@120\n");
    // A stand-in scontrol that records what it is asked; the task as Slurm starts it (its ids in the environment).
    const bin = join(base, "bin");
    mkdirSync(bin);
    writeFileSync(join(bin, "scontrol"), `#!/bin/sh\necho "$@" >> '${join(base, "scontrol.txt")}'\n`, { mode: 0o755 });
    // The last task of an array: its SLURM_JOB_ID is the array's own, which a requeue must not name (it took every task).
    const env = { ...process.env, PATH: `${bin}:${process.env.PATH}`, SLURM_ARRAY_TASK_ID: "1", SLURM_ARRAY_JOB_ID: "77", SLURM_JOB_ID: "77" };
    const task = spawnInGroup("bash", [job.layout.shardScript], { cwd: base, env, stdio: "ignore" });
    const ended = finished(task);
    const runs = join(shardFolder(work, 1), "runs.jsonl");
    await waitUntil(() => existsSync(runs) && statSync(runs).size > 0, task);
    process.kill(task.pid!, "SIGUSR1");
    // The run stopped as on Ctrl-C (exit 130: interrupted, resumable), then the task asked to be requeued.
    expect((await ended).code).toBe(130);
    expect(readFileSync(join(base, "scontrol.txt"), "utf8")).toBe("requeue 77_1\n");
    const manifest = JSON.parse(readFileSync(join(shardFolder(work, 1), "manifest.json"), "utf8")) as { status: string; counts: { runs: number; recorded: number } };
    expect(manifest.status).toBe("interrupted");
    const log = readFileSync(join(work, "logs", "shard-1.log"), "utf8");
    expect(log).toContain("shard 1: 120 s before the time limit (Slurm's signal): stopping, then requeueing");
    expect(log).toContain("shard 1: stopped; requeueing: it resumes when Slurm starts it again");
    // Slurm starts the requeued task again: it resumes, and the merge gives the whole sweep's tables.
    const again = spawnSync("bash", [job.layout.shardScript], { cwd: base, env, encoding: "utf8" });
    expect(again.status).toBe(0);
    expect(spawnSync("bash", [job.layout.mergeScript], { cwd: base, encoding: "utf8" }).status).toBe(0);
    const cli = spawnSync(process.execPath, [resolve("dist/cli/perceptron-lab.mjs"), "run", experiment, "--out", join(base, "whole"), "--quiet", "--no-report"], { cwd: base, encoding: "utf8" });
    expect(cli.status).toBe(0);
    expect(resultTables(join(base, "merged"))).toEqual(resultTables(join(base, "whole")));
    // Without the option, the task is node itself (exec), as before.
    const plain = writeSlurmJob(loadExperiment(experiment), { shards: 1, out: join(base, "merged2"), work: join(base, "work2") });
    expect(readFileSync(plain.layout.shardScript, "utf8")).not.toContain("--signal");
    expect(readFileSync(plain.layout.shardScript, "utf8")).toContain("\nexec ");
  });
});
