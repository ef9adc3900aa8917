import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { finished, killGroup, spawnInGroup, waitUntil } from "../child-processes.js";
import { resultTables, temporaryFolder } from "../helpers.js";

/**
 * A result folder is never silently wrong: every write is checked, a kill at any instant leaves a folder
 * that a plain --resume completes to the uninterrupted tables, one writer at a time, records that tell
 * a change. Through the real command line (npm test builds it first), with the test hooks of
 * src/files/fault-points.ts aimed at each file operation in turn.
 */

const manifestOf = (folder: string) => JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8"));

interface Result {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

function cli(args: readonly string[], env: NodeJS.ProcessEnv = {}, cwd?: string): Result {
  const result = spawnSync(process.execPath, [join(process.cwd(), "dist/cli/perceptron-lab.mjs"), ...args], { encoding: "utf8", env: { ...process.env, ...env }, cwd, timeout: 300_000, killSignal: "SIGKILL" });
  return { code: result.status, signal: result.signal, stdout: result.stdout, stderr: result.stderr };
}

/** The same, without blocking the test process, so that several run side by side. */
function cliAsync(args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Result> {
  return finished(spawnInGroup(process.execPath, ["dist/cli/perceptron-lab.mjs", ...args], { env: { ...process.env, ...env } }));
}

/** Runs `jobs` four at a time. */
async function inParallel<T>(jobs: readonly (() => Promise<T>)[]): Promise<T[]> {
  const results: T[] = [];
  for (let k = 0; k < jobs.length; k += 4) results.push(...(await Promise.all(jobs.slice(k, k + 4).map((job) => job()))));
  return results;
}

/** Every file operation of one invocation, from the trace hook: `[k, operation, path]`. */
function faultPoints(args: readonly string[]): [number, string, string][] {
  const { stderr } = cli(args, { PERCEPTRON_LAB_TEST_TRACE: "1" });
  return [...stderr.matchAll(/^fault point (\d+): (\S+) (.*)$/gm)].map((m) => [Number(m[1]), m[2]!, m[3]!]);
}

const folder = temporaryFolder();
const experiment = join(folder, "tiny.json");
// optimal off: these loops test files, not bounds (the golden tables hold those), and start ~240 processes.
writeFileSync(experiment, JSON.stringify({ name: "tiny", repeats: 3, optimal: false, grid: { n: 20, d: 2, margin: [0.1, 0.2], init: ["zero", "normal:1"] } }));
const reference = join(folder, "reference");
const referenceRun = cli(["run", experiment, "--out", reference, "--quiet", "--no-report", "--threads", "1"]);
const run = (out: string, ...more: string[]) => ["run", experiment, "--out", out, "--quiet", "--no-report", "--threads", "1", ...more];

describe("kills aimed at every file operation", () => {
  it("leave a folder that a plain --resume completes to the uninterrupted tables (a fresh run)", async () => {
    expect(referenceRun.code).toBe(0);
    const points = faultPoints(run(join(folder, "trace")));
    // Lock, leftovers, the manifest before the tables, the tables, the complete manifest, the lock's release.
    expect(points.some(([, operation, path]) => operation === "rename" && path.endsWith("manifest.json"))).toBe(true);
    expect(points.filter(([, operation]) => operation === "write").length).toBeGreaterThan(5);
    const outcomes = await inParallel(
      points.map(([k, operation, path]) => async () => {
        const out = join(folder, `kill-${k}`);
        const killed = await cliAsync(run(out), { PERCEPTRON_LAB_TEST_KILL_AT: String(k) });
        const resumed = await cliAsync(run(out, "--resume"));
        const same = resumed.code === 0 && JSON.stringify(resultTables(out)) === JSON.stringify(resultTables(reference)) && manifestOf(out).status === "complete";
        return { k, operation, path, killed: killed.signal, resumed: resumed.code, stderr: resumed.stderr, same };
      }),
    );
    // Every folder resumes to the uninterrupted tables. A kill aimed past the last operation of its own run is not
    // delivered: a run's background syncs (one a second) number more on a loaded machine, so the traced run may
    // count more operations than a killed one makes (CI beside other work: 9 of ~70 at the end). Those runs ended
    // whole; nearly all kills must land.
    expect(outcomes.filter((o) => !o.same || (o.killed !== "SIGKILL" && o.killed !== null))).toEqual([]);
    expect(outcomes.filter((o) => o.killed === "SIGKILL").length).toBeGreaterThan(0.75 * outcomes.length);
  });

  it("leave a folder that a plain --resume completes, when the kill hits a resume (records gathered, renamed, rewritten)", async () => {
    // An interrupted folder: killed as its first table write is synced.
    const interrupted = join(folder, "interrupted");
    const points = faultPoints(run(join(folder, "trace-2")));
    const firstSync = points.find(([, operation, path]) => operation === "sync" && path.endsWith("runs.journal"))![0];
    expect((await cliAsync(run(interrupted), { PERCEPTRON_LAB_TEST_KILL_AT: String(firstSync) })).signal).toBe("SIGKILL");
    // The resume's own operations, traced on a copy of the interrupted folder.
    const copy = (to: string) => {
      mkdirSync(to);
      for (const file of readdirSync(interrupted)) if (!file.startsWith(".")) writeFileSync(join(to, file), readFileSync(join(interrupted, file)));
    };
    const traced = join(folder, "resume-trace");
    copy(traced);
    const resuming = faultPoints(run(traced, "--resume"));
    expect(resuming.some(([, operation, path]) => operation === "rename" && path.endsWith("runs.previous.journal"))).toBe(true);
    const outcomes = await inParallel(
      resuming.map(([k, operation, path]) => async () => {
        const out = join(folder, `resume-kill-${k}`);
        copy(out);
        const killed = await cliAsync(run(out, "--resume"), { PERCEPTRON_LAB_TEST_KILL_AT: String(k) });
        const resumed = await cliAsync(run(out, "--resume"));
        const same = resumed.code === 0 && JSON.stringify(resultTables(out)) === JSON.stringify(resultTables(reference));
        return { k, operation, path, killed: killed.signal, resumed: resumed.code, stderr: resumed.stderr, same };
      }),
    );
    // As above: a kill aimed past the last operation of its own (faster) run is not delivered; nearly all land.
    expect(outcomes.filter((o) => !o.same || (o.killed !== "SIGKILL" && o.killed !== null))).toEqual([]);
    expect(outcomes.filter((o) => o.killed === "SIGKILL").length).toBeGreaterThan(0.75 * outcomes.length);
  });

  it("leave a merge's folder whole: a kill in its final move is finished by the next merge, never tables without a manifest", async () => {
    // Two shards, and a folder holding an earlier merge of them (merge --overwrite replaces it).
    const shards = [1, 2].map((index) => join(folder, `merge-shard-${index}`));
    for (const [k, shard] of shards.entries()) expect(cli(run(shard, "--shard", `${k + 1}/2`)).code).toBe(0);
    const merged = join(folder, "merged-reference");
    expect(cli(["merge", merged, ...shards, "--quiet"]).code).toBe(0);
    const tables = resultTables(merged);
    const points = faultPoints(["merge", join(folder, "merge-trace"), ...shards, "--quiet"]);
    // The final move: from the journal's write to the journal's removal.
    const journal = points.filter(([, , path]) => path.includes(".perceptron-lab.move.json")).map(([k]) => k);
    expect(journal.length).toBeGreaterThan(1);
    const during = points.filter(([k]) => k >= Math.min(...journal) && k <= Math.max(...journal));
    // The operations that change the folder's state (each rename, the first removal, the removals of the
    // manifest, the staging folder and the journal): a kill before each. (The syncs and creates change nothing a
    // kill could split, and removing a file a fresh folder does not hold is no fault point: 22 points in all.)
    const firstRemoval = during.find(([, operation]) => operation === "remove")![0];
    const move = during.filter(([k, operation, path]) => operation === "rename" || k === firstRemoval || (operation === "remove" && /(manifest\.json|\.merge-\d+|move\.json)$/.test(path)));
    expect(move.length).toBeGreaterThanOrEqual(8);
    expect(move.some(([, operation, path]) => operation === "rename" && path.endsWith("manifest.json"))).toBe(true);
    const outcomes = await inParallel(
      move.map(([k, operation, path]) => async () => {
        const out = join(folder, `merge-kill-${k}`);
        const killed = await cliAsync(["merge", out, ...shards, "--quiet"], { PERCEPTRON_LAB_TEST_KILL_AT: String(k) });
        const again = await cliAsync(["merge", out, ...shards, "--quiet"]);
        // Finished by the second merge (which then finds the folder complete, that merge's, and exits 0: a requeued
        // merge job reads success), or, killed before the journal was whole, merged afresh by it.
        const finishedNote = again.stderr.includes("finished the final move of a merge that was interrupted");
        const whole = JSON.stringify(resultTables(out)) === JSON.stringify(tables) && existsSync(join(out, "manifest.json"));
        const leftovers = readdirSync(out).filter((file) => file.startsWith("."));
        return { k, operation, path, killed: killed.signal, again: again.code, finishedNote, whole, leftovers };
      }),
    );
    expect(outcomes.filter((o) => o.killed !== "SIGKILL" || !o.whole || o.leftovers.length > 0 || o.again !== 0)).toEqual([]);
    // Some kills did land mid-move (the journal written, not removed): those are the ones the journal is for.
    expect(outcomes.filter((o) => o.finishedNote).length).toBeGreaterThan(0);
  });
});

describe("a write that fails", () => {
  it("stops the command with exit 1 and one line naming the file and the cause; --resume then gives the uninterrupted tables", async () => {
    const trace = join(folder, "trace-3");
    const points = faultPoints(run(trace));
    // The last manifest's rename makes the folder complete; only the sync of its folder comes after.
    const completedAt = points.filter(([, operation, path]) => operation === "rename" && path.endsWith("manifest.json")).at(-1)![0];
    const cases = points.flatMap(([k, operation, path]) => [
      { k, operation, path, code: "ENOSPC", every: false },
      ...(k % 3 === 0 ? [{ k, operation, path, code: "EIO", every: true }] : []),
    ]);
    const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    const outcomes = await inParallel(
      cases.map(({ k, operation, path, code, every }) => async () => {
        const out = join(folder, `fail-${code}-${k}`);
        const failed = await cliAsync(run(out), { PERCEPTRON_LAB_TEST_FAIL_AT: `${k}${every ? "+" : ""}:${code}` });
        const lines = failed.stderr.trimEnd().split("\n");
        // A file of the folder (or the folder), the operation and the cause. Which operation the k-th is can
        // shift under load (a sync every second while a sweep runs), so the trace's own is not required.
        const named = new RegExp(`^Error: ${escape(out)}(/\\S+)?: (create|write|sync|close|rename|remove) failed: .*\\(${code}\\)`);
        const message = failed.code === 1 && lines.length === 1 && named.test(lines[0]!);
        const complete = existsSync(join(out, "manifest.json")) && manifestOf(out).status === "complete";
        const resumed = await cliAsync(run(out, "--resume"));
        const same = resumed.code === 0 && JSON.stringify(resultTables(out)) === JSON.stringify(resultTables(reference));
        return { k, operation, path, code, exit: failed.code, stderr: failed.stderr, message, wronglyComplete: complete && k <= completedAt, same, resumed: resumed.code, resumedStderr: resumed.stderr };
      }),
    );
    // Never complete after a failed write; always the one line; always resumable to the same tables.
    expect(outcomes.filter((o) => !o.message || o.wronglyComplete || !o.same)).toEqual([]);
    const hint = outcomes.find((o) => o.path.endsWith("runs.csv"))!.stderr;
    expect(hint).toContain(`What was written is kept: once this is fixed, perceptron-lab run ${experiment} --out ${join(folder, "fail-ENOSPC-")}`);
  });

  it("on a real full disk (a 640 KiB tmpfs, as root), then with space freed", () => {
    if (process.getuid?.() !== 0 || spawnSync("mount", ["--version"]).status !== 0) {
      console.warn("skipped: mounting a tmpfs needs root and mount(8)");
      return;
    }
    const mountPoint = join(folder, "small");
    mkdirSync(mountPoint);
    const mounted = spawnSync("mount", ["-t", "tmpfs", "-o", "size=640k", "tmpfs", mountPoint], { encoding: "utf8" });
    if (mounted.status !== 0) {
      console.warn(`skipped: cannot mount a tmpfs here (${mounted.stderr.trim()})`);
      return;
    }
    try {
      const quick = ["run", "experiments/quick.json", "--out", join(mountPoint, "q"), "--quiet", "--no-report"];
      const full = cli(quick);
      expect(full.code).toBe(1);
      expect(full.stderr).toMatch(new RegExp(`^Error: ${mountPoint}/q/\\S+: (write|sync|close|create|rename) failed: no space left on the device \\(ENOSPC\\)\\. What was written is kept`));
      expect(manifestOf(join(mountPoint, "q")).status).not.toBe("complete");
      // A disk with not a byte left: the next sweep cannot even lock its folder. A refused write (exit 1), not a
      // mistake of the user's (exit 2), and nothing on disk to resume.
      spawnSync("sh", ["-c", 'cat /dev/zero > "$0" 2>/dev/null', join(mountPoint, "filler")]);
      const none = cli(["run", "experiments/quick.json", "--out", join(mountPoint, "q2"), "--quiet", "--no-report"]);
      expect(none.code).toBe(1);
      expect(none.stderr).toMatch(/failed: no space left on the device \(ENOSPC\)\. Nothing of this sweep is on disk: once this is fixed, run the same command again\n$/);
      expect(existsSync(join(mountPoint, "q2", "manifest.json"))).toBe(false);
      rmSync(join(mountPoint, "filler"));
      expect(spawnSync("mount", ["-o", "remount,size=4m", mountPoint]).status).toBe(0);
      expect(cli([...quick, "--resume"]).code).toBe(0);
      const unlimited = join(folder, "quick");
      expect(cli(["run", "experiments/quick.json", "--out", unlimited, "--quiet", "--no-report"]).code).toBe(0);
      expect(resultTables(join(mountPoint, "q"))).toEqual(resultTables(unlimited));
      expect(manifestOf(join(mountPoint, "q")).status).toBe("complete");
    } finally {
      spawnSync("umount", [mountPoint]);
    }
  });
});

describe("one writer at a time", () => {
  it("refuses a second writer, naming the holder; takes over the lock of a writer that was killed", async () => {
    const out = join(folder, "contended");
    const slow = join(folder, "slow.json");
    writeFileSync(slow, JSON.stringify({ name: "slow", repeats: 12, grid: { n: 1000, d: 20, margin: [0.005, 0.01], offset: [0, 0.2] } }));
    // The first writer hangs on a planted fault (run 12) while holding the lock.
    const first = spawnInGroup(process.execPath, ["dist/cli/perceptron-lab.mjs", "run", slow, "--out", out, "--quiet", "--no-report"], {
      env: { ...process.env, PERCEPTRON_LAB_TEST_FAULTS: JSON.stringify({ hang: [12] }) },
    });
    await waitUntil(() => existsSync(join(out, "runs.csv")), first);
    const second = cli(["run", slow, "--out", out, "--overwrite", "--quiet"]);
    expect(second.code).toBe(2);
    expect(second.stderr).toMatch(new RegExp(`^Error: ${out} is being written by another perceptron-lab \\(run, pid ${first.pid} on \\S+, since \\S+\\): wait for it to finish, or stop it\\n$`));
    await killGroup(first);
    const resumed = cli(["run", slow, "--out", out, "--resume", "--no-report"]);
    expect(resumed.code).toBe(0);
    expect(resumed.stderr).toContain(`note: ${out}: took over the lock of run, pid ${first.pid} on`);
    expect(resumed.stderr).toContain("which is no longer running");
    expect(existsSync(join(out, ".perceptron-lab.lock"))).toBe(false);
  });

  it("lets two runs started at once into one folder end as one complete folder, never a mixture", async () => {
    const out = join(folder, "race");
    const [a, b] = await Promise.all([cliAsync(run(out)), cliAsync(run(out))]);
    expect([a.code, b.code].sort()).toEqual([0, 2]);
    expect(resultTables(out)).toEqual(resultTables(reference));
    expect(manifestOf(out).status).toBe("complete");
  });
});

describe("records that tell a change", () => {
  it("refuse a changed record in resume, report and compare, naming the file (and the block or line)", async () => {
    const out = join(folder, "edited");
    expect(cli(run(out)).code).toBe(0);
    // A complete folder's runs are its runs.parquet, checked against its manifest by every reader.
    const parquet = join(out, "runs.parquet");
    const original = readFileSync(parquet);
    const changed = Buffer.from(original);
    changed[200]! ^= 1;
    writeFileSync(parquet, changed);
    const refusal = new RegExp(`^Error: ${parquet.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}: its SHA-256 is [0-9a-f]{12}…, its manifest records [0-9a-f]{12}…; the result folder was changed by hand: rerun the sweep \\(or --overwrite\\)\n$`);
    for (const args of [["report", out], ["compare", reference, out], run(out, "--resume")]) {
      const refused = cli(args);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(refusal);
    }
    writeFileSync(parquet, original);
    // A record of the runs.jsonl view edited: no reader reads it back, but a complete folder resumed is checked whole.
    const path = join(out, "runs.jsonl");
    const lines = readFileSync(path, "utf8").split("\n");
    lines[4] = lines[4]!.replace(/"updates":(\d+)/, (_, updates) => `"updates":${Number(updates) + 1}`);
    writeFileSync(path, lines.join("\n"));
    expect(cli(run(out, "--resume"))).toMatchObject({
      code: 2,
      stderr: `Error: ${path}: line 5 does not match its record check: it was changed after it was written; the result folder was changed by hand (or written by a perceptron-lab older than 0.2): --overwrite starts over\n`,
    });

    // An unfinished folder's record, its journal: a changed block is refused by the resume, naming file and block, before anything is touched.
    const unfinished = join(folder, "edited-unfinished");
    const points = faultPoints(run(join(folder, "trace-journal")));
    // Killed once the journal's blocks are written (as it is synced or closed): a journal with blocks, and no runs.parquet.
    const journalWritten = points.find(([, operation, file]) => (operation === "sync" || operation === "close") && file.endsWith("runs.journal"));
    expect(journalWritten, `the traced run's file operations: ${JSON.stringify(points)}`).toBeDefined();
    const journalSync = journalWritten![0];
    expect((await cliAsync(run(unfinished), { PERCEPTRON_LAB_TEST_KILL_AT: String(journalSync) })).signal).toBe("SIGKILL");
    const journal = join(unfinished, "runs.journal");
    const bytes = readFileSync(journal);
    expect(bytes.length).toBeGreaterThan(16 + 40 + 8);
    bytes[16 + 40 + 8]! ^= 1;
    writeFileSync(journal, bytes);
    const manifest = readFileSync(join(unfinished, "manifest.json"), "utf8");
    // (After the note that the killed run's lock was taken over.)
    const refused = cli(run(unfinished, "--resume"));
    expect(refused.code).toBe(2);
    expect(refused.stderr.split("\n").at(-2)).toBe(`Error: ${journal}: block 1 (byte 16) does not match its check: it was changed after it was written; the result folder was changed by hand: --overwrite starts over`);
    expect(readFileSync(journal).equals(bytes)).toBe(true);
    expect(readFileSync(join(unfinished, "manifest.json"), "utf8")).toBe(manifest);
  });
});

describe("nothing written or removed outside the result folder", () => {
  it("refuses an empty --out and the working folder or its ancestors, for run, merge and rerun", () => {
    const work = join(folder, "work");
    mkdirSync(join(work, "plots"), { recursive: true });
    writeFileSync(join(work, "plots", "mine.svg"), "a user's file");
    writeFileSync(join(work, "report.md"), "a user's notes");
    for (const out of ["", ".", "..", work]) {
      const refused = cli(["run", experiment, "--out", out, "--overwrite", "--quiet"], {}, work);
      expect(refused.code).toBe(2);
      expect(refused.stderr).toMatch(out === "" ? /^Error: --out is empty: name the result folder/ : /^Error: --out .*: is the working folder or one of its ancestors/);
    }
    expect(cli(["merge", "", reference], {}, work)).toMatchObject({ code: 2, stderr: "Error: merge's output folder is empty: name the result folder (an unset variable in a script?)\n" });
    expect(cli(["rerun", reference, "--out", ""], {}, work).stderr).toContain("Error: --out is empty");
    expect(readFileSync(join(work, "plots", "mine.svg"), "utf8")).toBe("a user's file");
    expect(readFileSync(join(work, "report.md"), "utf8")).toBe("a user's notes");
  });

  it("--overwrite removes only the tool's files: a plots/ folder holding a user's file stays, with that file", () => {
    const out = join(folder, "mixed");
    expect(cli(["run", experiment, "--out", out, "--quiet"]).code).toBe(0);
    expect(readdirSync(join(out, "plots")).length).toBeGreaterThan(0);
    writeFileSync(join(out, "plots", "mine.svg"), "a user's plot");
    writeFileSync(join(out, "notes.txt"), "a user's notes");
    expect(cli(["run", experiment, "--out", out, "--quiet", "--no-report", "--overwrite"]).code).toBe(0);
    expect(readdirSync(join(out, "plots"))).toEqual(["mine.svg"]);
    expect(readFileSync(join(out, "notes.txt"), "utf8")).toBe("a user's notes");
    expect(existsSync(join(out, "report.html"))).toBe(false);
  });

  it("names an experiment without a name after its file, sanitised: `...json` does not write results/..", () => {
    const work = join(folder, "names");
    mkdirSync(work);
    writeFileSync(join(work, "...json"), JSON.stringify({ grid: { n: 10, d: 2, margin: 0.1 } }));
    expect(cli(["run", "...json", "--quiet", "--no-report"], {}, work).code).toBe(0);
    expect(readdirSync(join(work, "results"))).toEqual(["experiment__"]);
  });

  it("spills summaries into a private folder of the result folder, never through a planted symlink, and leaves none behind", () => {
    const out = join(folder, "spilling");
    const big = join(folder, "big.json");
    // 20 000 repeats of one point: its columns spill past 16 384 values.
    writeFileSync(big, JSON.stringify({ name: "big", repeats: 20_000, optimal: false, grid: { n: 4, d: 2, margin: 0.3 } }));
    mkdirSync(out);
    const victim = join(folder, "victim.txt");
    writeFileSync(victim, "not to be overwritten");
    for (let k = 0; k < 4; k++) symlinkSync(victim, join(out, `.spill-${k}`));
    const result = cli(["run", big, "--out", out, "--quiet", "--no-report"], { PERCEPTRON_LAB_TEST_TRACE: "1" });
    expect(result.code).toBe(0);
    // Spilled (the trace shows each write) into a folder of the result folder's own, made afresh.
    expect(result.stderr).toMatch(new RegExp(`fault point \\d+: write ${out}/\\.spill-[A-Za-z0-9]{6}/0\\.f64`));
    expect(readFileSync(victim, "utf8")).toBe("not to be overwritten");
    expect(readdirSync(out).filter((file) => file.startsWith(".spill-") && !/^\.spill-\d$/.test(file))).toEqual([]);
    expect(readdirSync(folder).filter((file) => file.startsWith("perceptron-lab-spill-"))).toEqual([]);
  });
});
