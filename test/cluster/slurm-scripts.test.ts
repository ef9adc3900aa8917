import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { checkShards } from "../../src/cluster/check-shards.js";
import { queueComment, queueOffset, type ClusterLayout } from "../../src/cluster/cluster-layout.js";
import { slurmArrays, slurmRerunCommands, slurmScripts } from "../../src/cluster/slurm-scripts.js";
import { writeSlurmJob } from "../../src/cluster/write-slurm-job.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { finished, spawnInGroup, waitUntil } from "../child-processes.js";
import { existsSync } from "node:fs";
import { slurmTimeSeconds } from "../../src/cli/slurm-command.js";

const layout = (work: string, shards: number, arrayLimit: number): ClusterLayout => ({
  scheduler: "slurm",
  experiment: "/data/exp's.json",
  overrides: ["repeats=3", "grid.margin=0.1,0.2"],
  shards,
  out: "/data/out",
  shardScript: join(work, "shards.sbatch"),
  mergeScript: join(work, "merge.sbatch"),
  arrayLimit,
  tag: "0123456789ab",
});

describe("Slurm scripts", () => {
  it("cover every shard with arrays of at most the limit, and rerun any set of shards by task id and offset", () => {
    expect(slurmArrays({ shards: 7, arrayLimit: 3 })).toEqual([{ offset: 0, size: 3 }, { offset: 3, size: 3 }, { offset: 6, size: 1 }]);
    expect(slurmArrays({ shards: 1000, arrayLimit: 1000 })).toEqual([{ offset: 0, size: 1000 }]);
    expect(slurmRerunCommands(layout("/w", 7, 3), [7, 1, 2, 3, 5])).toEqual([
      "sbatch --array=1-3 /w/shards.sbatch",
      "sbatch --array=2 --export=ALL,SHARD_OFFSET=3 --comment=perceptron-lab-0123456789ab-3 /w/shards.sbatch",
      "sbatch --array=1 --export=ALL,SHARD_OFFSET=6 --comment=perceptron-lab-0123456789ab-6 /w/shards.sbatch",
    ]);
  });

  it("find their own arrays in the queue by comment, and nobody else's", () => {
    const mine = { tag: "0123456789ab" };
    expect([0, 3, 1000].map((offset) => queueOffset(mine, queueComment(mine, offset)))).toEqual([0, 3, 1000]);
    expect(queueOffset({ tag: "ba9876543210" }, queueComment(mine, 3))).toBeNull();
    expect(queueOffset(mine, "(null)")).toBeNull();
    expect(queueOffset(mine, "perceptron-lab-0123456789ab-x")).toBeNull();
  });

  it("submit.sh refuses a job past the cluster's MaxJobCount or MaxArraySize before submitting anything, and names what it queued when an sbatch fails midway", () => {
    const work = temporaryFolder();
    const bin = join(work, "bin");
    mkdirSync(bin);
    const calls = join(bin, "calls");
    // Stand-ins: scontrol answers the limits it is given, sbatch records its call and answers a job id, or fails on
    // the call FAIL_AT (as Slurm does past a limit: "Batch job submission failed: Resource temporarily unavailable").
    writeFileSync(join(bin, "scontrol"), '#!/bin/bash\n[ -n "${LIMITS:-}" ] || exit 1\nprintf "%b" "$LIMITS"\n');
    writeFileSync(join(bin, "sbatch"), `#!/bin/bash\nn=$(( $(cat ${JSON.stringify(calls)} 2>/dev/null | wc -l) + 1 ))\necho "$*" >> ${JSON.stringify(calls)}\nif [ "$n" = "\${FAIL_AT:-0}" ]; then echo "sbatch: error: Batch job submission failed: Resource temporarily unavailable" >&2; exit 1; fi\necho $((40 + n))\n`);
    for (const tool of ["scontrol", "sbatch"]) chmodSync(join(bin, tool), 0o755);
    const submit = (shards: number, arrayLimit: number, env: Record<string, string>) => {
      rmSync(calls, { force: true });
      const scripts = slurmScripts({ layout: layout(work, shards, arrayLimit), name: "exp", work, cwd: work, node: "/usr/bin/node", cli: "/opt/pl/main.js", version: "9.9.9", cpus: 1 });
      writeFileSync(join(work, "submit.sh"), scripts.submit);
      const result = spawnSync("bash", [join(work, "submit.sh")], { encoding: "utf8", env: { PATH: `${bin}:${process.env.PATH}`, ...env } });
      return { ...result, calls: existsSync(calls) ? readFileSync(calls, "utf8").trim().split("\n") : [] };
    };
    const limits = "ClusterName = ci\nMaxArraySize            = 1001\nMaxJobCount             = 10000\n";
    // 10⁴ shards and the merge: 10 001 jobs, one past Slurm's default MaxJobCount.
    const past = submit(10_000, 1000, { LIMITS: limits });
    expect(past.status).toBe(2);
    expect(past.stderr.trim()).toBe("Error: 10000 shards and the merge are 10001 jobs (each task of an array counts), past this cluster's MaxJobCount of 10000: write the job again with perceptron-lab slurm --shards 9999 or fewer; nothing was submitted");
    expect(past.calls).toEqual([]);
    const arrays = submit(9_999, 2000, { LIMITS: limits });
    expect(arrays.status).toBe(2);
    expect(arrays.stderr).toContain("this cluster's MaxArraySize is 1001: write the job again with perceptron-lab slurm --array-limit 1000; nothing was submitted");
    expect(arrays.calls).toEqual([]);
    // Within the limits, or where scontrol cannot tell them: submitted.
    for (const env of [{ LIMITS: limits }, {}] as Record<string, string>[]) {
      const fine = submit(9_999, 1000, env);
      expect(fine.status, fine.stderr).toBe(0);
      expect(fine.calls).toHaveLength(11);
      expect(fine.stdout).toBe("shards: 41 42 43 44 45 46 47 48 49 50\nmerge: 51\n");
    }
    // The third of 3 arrays refused: the two queued are named, with how to cancel them; no merge job.
    const midway = submit(7, 3, { FAIL_AT: "3" });
    expect(midway.status).not.toBe(0);
    expect(midway.calls).toHaveLength(3);
    expect(midway.stderr).toContain("Error: submitting stopped after 2 of 3 job arrays (sbatch refused the next: its message is above); queued: 41 42, and no merge job. Cancel them with scancel 41 42 and write the job again with fewer shards (perceptron-lab slurm --shards)");
    const merge = submit(7, 3, { FAIL_AT: "4" });
    expect(merge.status).not.toBe(0);
    expect(merge.stderr).toContain(`Error: sbatch refused the merge job (its message is above); the shards are queued (41 42 43). Once the queue has room: sbatch --dependency=afterany:41:42:43 ${join(work, "merge.sbatch")}`);
    const first = submit(7, 3, { FAIL_AT: "1" });
    expect(first.status).not.toBe(0);
    expect(first.calls).toHaveLength(1);
    expect(first.stderr).toContain("Error: sbatch refused the first job array (its message is above): nothing was submitted");
  });

  it("run shard task id + SHARD_OFFSET of the baked-in count, by exec, resuming its own folder", () => {
    const work = temporaryFolder();
    // A stand-in for node that prints the arguments it was given.
    const node = join(work, "fake-node");
    writeFileSync(node, '#!/bin/sh\nfor a in "$@"; do printf "[%s]" "$a"; done; echo\n');
    chmodSync(node, 0o755);
    const scripts = slurmScripts({ layout: layout(work, 7, 3), name: "exp", work, cwd: work, node, cli: "/opt/pl/main.js", version: "9.9.9", cpus: 4, time: "01:00:00", maxParallel: 2 });
    writeFileSync(join(work, "shards.sbatch"), scripts.shards);
    expect(scripts.shards).toContain("#SBATCH --array=1-3%2\n");
    expect(scripts.shards).toContain("#SBATCH --cpus-per-task=4\n#SBATCH --ntasks=1\n#SBATCH --time=01:00:00\n#SBATCH --comment=perceptron-lab-0123456789ab-0\n");
    const task = (env: Record<string, string>) => spawnSync("bash", [join(work, "shards.sbatch")], { encoding: "utf8", env: { PATH: process.env.PATH!, ...env } });
    expect(task({ SLURM_ARRAY_TASK_ID: "2", SHARD_OFFSET: "3", SLURM_CPUS_PER_TASK: "4" }).status).toBe(0);
    expect(readFileSync(join(work, "logs", "shard-5.log"), "utf8").split("\n")[1]).toBe(
      `[/opt/pl/main.js][run][/data/exp's.json][--set][repeats=3][--set][grid.margin=0.1,0.2][--shard][5/7][--threads][4][--out][${work}/shards/5][--resume][--quiet][--no-report]`,
    );
    const outside = task({});
    expect(outside.status).not.toBe(0);
    expect(outside.stderr).toContain("run this script as a job array task: sbatch --array=K");
    // The merge job checks first, and merges every shard folder by number.
    // The shard folders go to merge through a file (printf is a builtin: no argument limit), not on its command line.
    expect(scripts.merge).toContain(`/opt/pl/main.js check ${work}\nprintf '%s\\n' ${work}/shards/{1..7} > ${work}/merge-shards.txt\nexec ${node} /opt/pl/main.js merge /data/out --shard-list ${work}/merge-shards.txt --quiet\n`);
    // submit.sh: one sbatch an array, the merge after all of them, whatever happened to them (afterany).
    expect(scripts.submit.match(/sbatch --parsable "\$@"/g)).toHaveLength(3);
    expect(scripts.submit).toContain("--array=1-1%2 --export=ALL,SHARD_OFFSET=6 --comment=perceptron-lab-0123456789ab-6");
    expect(scripts.submit).toContain('--dependency=afterany:"$(IFS=:; echo "${jobs[*]}")"');
    expect(spawnSync("bash", ["-n", "-c", scripts.submit]).status).toBe(0);
    expect(spawnSync("bash", ["-n", "-c", scripts.merge]).status).toBe(0);
    expect(scripts.shards).not.toContain("parquet");

    // --tables: the shards and the merge keep those tables (without it, the experiment's).
    const only = slurmScripts({ layout: layout(work, 7, 3), name: "exp", work, cwd: work, node, cli: "/opt/pl/main.js", version: "9.9.9", cpus: 1, tables: ["parquet"] });
    expect(only.shards).toContain(`--out ${work}/shards/"$shard" --resume --quiet --no-report --tables parquet\n`);
    expect(only.merge).toContain(`merge /data/out --shard-list ${work}/merge-shards.txt --quiet --tables parquet\n`);
    const two = slurmScripts({ layout: layout(work, 7, 3), name: "exp", work, cwd: work, node, cli: "/opt/pl/main.js", version: "9.9.9", cpus: 1, tables: ["csv", "parquet"] });
    expect(two.shards).toContain("--no-report --tables csv,parquet\n");
    expect(two.merge).toContain("--quiet --tables csv,parquet\n");
  });
});

describe("check", () => {
  it("tells complete, running, queued, stopped, missing and foreign shards apart, and reruns only the stopped and missing", async () => {
    const cwd = temporaryFolder();
    const loaded = loadExperiment(resolve("experiments/quick.json"), { overrides: ["repeats=1", "optimal=false"] });
    const job = writeSlurmJob(loaded, { shards: 5, out: join(cwd, "merged") });
    expect(() => writeSlurmJob(loaded, { shards: 5, out: join(cwd, "merged") })).toThrow(`${job.work} already holds a Slurm job (cluster.json): { overwrite: true } writes its scripts again (the shard folders stay)`);
    // An --out that already holds results is refused before any script is written (its final merge would be).
    const held = join(cwd, "held");
    await runExperiment(loaded, { threads: 1, outDir: held });
    expect(() => writeSlurmJob(loaded, { shards: 2, out: held, work: join(cwd, "held-job") })).toThrow(
      `${held} already holds results: the job's final merge would refuse to write there after every shard ran; choose another --out, or move them away`,
    );
    expect(existsSync(join(cwd, "held-job"))).toBe(false);
    const shard = (index: number, count = 5) => runExperiment(loaded, { threads: 1, outDir: join(job.work, "shards", String(index)), shard: { index, count } });
    await shard(1);
    await shard(2);
    const manifest = join(job.work, "shards", "2", "manifest.json");
    writeFileSync(manifest, readFileSync(manifest, "utf8").replace('"status": "complete"', '"status": "interrupted"'));
    mkdirSync(join(job.work, "shards", "4"));
    await runExperiment(loaded, { threads: 1, outDir: join(job.work, "shards", "5"), shard: { index: 1, count: 5 } });
    const states = (queue: ReadonlyMap<number, string> | null) => checkShards(job.work, { queue }).shards.map((s) => `${s.index} ${s.state}`);
    expect(states(null)).toEqual(["1 complete", "2 stopped", "3 missing", "4 missing", "5 foreign"]);
    const queued = checkShards(job.work, { queue: new Map([[3, "PENDING"], [2, "RUNNING"]]) });
    expect(queued.shards.map((s) => `${s.index} ${s.state}`)).toEqual(["1 complete", "2 running", "3 queued", "4 missing", "5 foreign"]);
    expect(queued.rerun).toEqual([`sbatch --array=4 ${job.layout.shardScript}`]);
    expect(queued.complete).toBe(false);
    expect(checkShards(job.work, { queue: null }).rerun).toEqual([`sbatch --array=2-4 ${job.layout.shardScript}`]);
    expect(checkShards(job.work, { queue: null }).shards[4]!.detail).toBe("holds shard 1/5, not shard 5/5");
    // A shard of another experiment file is told apart by the file most shards ran, whichever comes first.
    const first = join(job.work, "shards", "1", "manifest.json");
    const text = readFileSync(first, "utf8");
    const hash = (JSON.parse(text) as { experiment: { hash: string } }).experiment.hash;
    writeFileSync(first, text.replace(hash, "f".repeat(64)));
    expect(checkShards(job.work, { queue: null }).shards[0]).toMatchObject({ state: "foreign", detail: `ran another experiment file (sha256 ffffffffffff… against ${hash.slice(0, 12)}…)` });
    writeFileSync(first, text);

    // A task that died before writing its manifest: its log's last line is the reason check gives.
    mkdirSync(join(job.work, "logs"), { recursive: true });
    writeFileSync(join(job.work, "logs", "shard-3.log"), "2026-11-27T08:00:00Z shard 3/5: job 7 on node1\nslurmstepd: error: *** JOB 7 ON node1 CANCELLED AT 2026-11-27T08:01:00 DUE TO TIME LIMIT ***\n\n");
    expect(checkShards(job.work, { queue: null }).shards[2]).toMatchObject({ state: "missing", detail: "no shards/3/manifest.json yet; its log ends: slurmstepd: error: *** JOB 7 ON node1 CANCELLED AT 2026-11-27T08:01:00 DUE TO TIME LIMIT ***" });

    const cli = spawnSync(process.execPath, [resolve("dist/cli/perceptron-lab.mjs"), "check", job.work], { encoding: "utf8", env: { ...process.env, PATH: "/nonexistent" } });
    expect(cli.status).toBe(1);
    expect(cli.stdout).toContain("1 of 5 shards complete; 1 stopped, 2 missing, 1 foreign\n(squeue did not answer");
    // The merge waits for the reruns: sbatch's dependency on their jobs, not at once.
    expect(cli.stdout).toContain(`Then merge once they have ended, not before: sbatch --dependency=afterany:<the job id it prints> ${job.layout.mergeScript}\n`);
  });
});

describe("slurm and check on the command line", () => {
  it("requeue the task signalled, never its array, at most --max-requeues times, and say how to rerun it, its offset included", async () => {
    const work = temporaryFolder();
    const bin = join(work, "bin");
    mkdirSync(bin);
    // A stand-in for node: a run that says it started and ends on SIGTERM (as Ctrl-C stops a sweep); and for scontrol.
    const node = join(bin, "fake-node");
    // (It waits on its child, which the signal's trap ends: no polling, nothing left running.)
    writeFileSync(node, `#!/bin/bash\nsleep infinity &\nchild=$!\ntrap 'kill $child; exit 130' TERM\ntouch ${work}/started\nwait $child\n`);
    writeFileSync(join(bin, "scontrol"), `#!/bin/sh\necho "$@" >> ${work}/scontrol-calls\nexit \${SCONTROL_STATUS:-0}\n`);
    for (const file of [node, join(bin, "scontrol")]) chmodSync(file, 0o755);
    const scripts = slurmScripts({ layout: layout(work, 7, 3), name: "exp", work, cwd: work, node, cli: "/opt/pl/main.js", version: "9.9.9", cpus: 1, time: "01:00:00", requeueBefore: 60, maxRequeues: 2, yes: true });
    writeFileSync(join(work, "shards.sbatch"), scripts.shards);
    expect(scripts.shards).toContain("--resume --quiet --no-report --yes");
    // The last task of an array has the array's id for its SLURM_JOB_ID: a requeue of that id took the whole array (audit).
    const task = async (env: Record<string, string>) => {
      const child = spawnInGroup("bash", [join(work, "shards.sbatch")], { env: { PATH: `${bin}:${process.env.PATH}`, SLURM_ARRAY_JOB_ID: "90", SLURM_ARRAY_TASK_ID: "2", SLURM_JOB_ID: "90", SHARD_OFFSET: "3", ...env } });
      await waitUntil(() => existsSync(join(work, "started")), child);
      process.kill(child.pid!, "SIGUSR1");
      const { code } = await finished(child);
      const log = readFileSync(join(work, "logs", "shard-5.log"), "utf8");
      const calls = existsSync(join(work, "scontrol-calls")) ? readFileSync(join(work, "scontrol-calls"), "utf8") : "";
      for (const file of ["started", "scontrol-calls", "logs/shard-5.log"]) writeFileSync(join(work, file), "");
      rmSync(join(work, "started"));
      return { code, log, calls };
    };
    const rerun = `sbatch --array=2 --export=ALL,SHARD_OFFSET=3 ${join(work, "shards.sbatch")}`;
    const requeued = await task({ SLURM_RESTART_COUNT: "1" });
    expect(requeued.calls).toBe("requeue 90_2\n");
    expect(requeued.log).toContain("shard 5: stopped; requeueing: it resumes when Slurm starts it again");
    // Past the cap: no requeue; an error line that check quotes, with the rerun command of this very shard.
    const capped = await task({ SLURM_RESTART_COUNT: "2" });
    expect(capped).toMatchObject({ code: 75, calls: "" });
    expect(capped.log).toContain(`Error: shard 5 stopped at its time limit 2 times (--max-requeues 2): not requeued again; its folder is resumable: give it a longer --time, or run it again with ${rerun}`);
    const refused = await task({ SCONTROL_STATUS: "1" });
    expect(refused.code).toBe(75);
    expect(refused.log).toContain(`Error: shard 5 could not be requeued (scontrol requeue failed): run it again with ${rerun}`);
  });

  it("read Slurm's time formats, for the requeue's lead time", () => {
    expect([slurmTimeSeconds("30"), slurmTimeSeconds("30:15"), slurmTimeSeconds("04:00:00"), slurmTimeSeconds("2-12"), slurmTimeSeconds("1-01:30"), slurmTimeSeconds("1-00:00:10")]).toEqual([1800, 1815, 14400, 216000, 91800, 86410]);
    expect(slurmTimeSeconds("UNLIMITED")).toBeNull();
  });

  it("carry hostile paths as data, never as commands, and refuse what a job script cannot carry", () => {
    const base = temporaryFolder();
    const pwned = join(base, "PWNED");
    const quick = readFileSync("experiments/quick.json", "utf8");
    // Where a shell would read a command: $(…), backticks, }$(…) after a parameter expansion, quotes, non-ASCII.
    const hostile = ["$(touch PWNED)", "a`touch PWNED`b", "x}$(touch PWNED)", "it's \"quoted\"", "café"];
    for (const name of hostile) {
      const folder = join(base, `exp-${hostile.indexOf(name)}`, name);
      mkdirSync(folder, { recursive: true });
      const experiment = join(folder, `${name}.json`);
      writeFileSync(experiment, quick);
      const loaded = loadExperiment(experiment, { overrides: [`description=${name}`] });
      // In the experiment's path and the result folder: quoted where the scripts read them.
      const work = join(base, `work-${hostile.indexOf(name)}`);
      const job = writeSlurmJob(loaded, { shards: 2, out: join(folder, "merged"), work });
      for (const script of [job.layout.shardScript, job.layout.mergeScript, job.submit]) {
        expect(spawnSync("bash", ["-n", script]).status, script).toBe(0);
      }
      // The shard script outside an array task: it stops with its message, which names the script as written.
      const outside = spawnSync("bash", [job.layout.shardScript], { cwd: base, encoding: "utf8", env: { PATH: process.env.PATH } });
      expect(outside.status).not.toBe(0);
      expect(outside.stderr).toContain(`sbatch --array=K ${job.layout.shardScript}`);
      // submit.sh with a stand-in sbatch that records its arguments and answers a job id.
      const bin = join(base, `bin-${hostile.indexOf(name)}`);
      mkdirSync(bin);
      writeFileSync(join(bin, "sbatch"), `#!/bin/bash\nprintf '%s\\n' "$@" >> ${JSON.stringify(join(bin, "calls"))}\necho 42\n`);
      // And scontrol, which submit.sh asks for the cluster's limits: none known here (a test reaches no cluster).
      writeFileSync(join(bin, "scontrol"), "#!/bin/sh\nexit 1\n");
      for (const tool of ["sbatch", "scontrol"]) chmodSync(join(bin, tool), 0o755);
      const submitted = spawnSync("bash", [job.submit], { cwd: base, encoding: "utf8", env: { PATH: `${bin}:${process.env.PATH}` } });
      expect(submitted.status, submitted.stderr).toBe(0);
      expect(readFileSync(join(bin, "calls"), "utf8").split("\n")).toContain(job.layout.shardScript);
    }
    expect(() => readFileSync(pwned)).toThrow();
    // A work folder that cannot go into a #SBATCH line (its logs are named there), or a newline anywhere: refused.
    const loaded = loadExperiment("experiments/quick.json");
    expect(() => writeSlurmJob(loaded, { shards: 2, out: join(base, "m1"), work: join(base, "x}$(touch PWNED)") })).toThrow(
      `--work ${JSON.stringify(join(base, "x}$(touch PWNED)"))}: a #SBATCH line cannot carry "$" (white space, quotes, \\, % and $ are not allowed there): choose a path or value without it`,
    );
    expect(() => writeSlurmJob(loaded, { shards: 2, out: join(base, "m2"), work: join(base, "with space") })).toThrow('a #SBATCH line cannot carry " "');
    expect(() => writeSlurmJob(loaded, { shards: 2, out: join(base, "line\nbreak") })).toThrow("holds a control character (a newline?), which a job script cannot carry safely");
    expect(() => readFileSync(pwned)).toThrow();
  });
});
