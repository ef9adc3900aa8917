import { spawnSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, utimesSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LOCK_FOLDER, lockResultFolder, TAKEOVER_FOLDER } from "../../src/runner/folder-lock.js";
import { temporaryFolder } from "../helpers.js";

/** A result folder whose lock a process that has exited holds (its pid no longer runs). */
function deadHoldersFolder(): { folder: string; pid: number } {
  const folder = temporaryFolder();
  const pid = spawnSync(process.execPath, ["-e", ""]).pid!;
  mkdirSync(join(folder, LOCK_FOLDER));
  writeFileSync(join(folder, LOCK_FOLDER, "holder.json"), JSON.stringify({ pid, host: hostname(), since: "2026-11-27T00:00:00.000Z", command: "run" }));
  return { folder, pid };
}

const holderPid = (folder: string) => JSON.parse(readFileSync(join(folder, LOCK_FOLDER, "holder.json"), "utf8")).pid as number;

describe("the result folder's lock", () => {
  it("takes over a dead holder's lock, saying so, and refuses a second writer while held", () => {
    const { folder, pid } = deadHoldersFolder();
    const lock = lockResultFolder(folder, "run");
    expect(lock.note).toBe(`took over the lock of run, pid ${pid} on ${hostname()}, since 2026-11-27T00:00:00.000Z, which is no longer running`);
    expect(holderPid(folder)).toBe(process.pid);
    expect(existsSync(join(folder, TAKEOVER_FOLDER))).toBe(false);
    expect(() => lockResultFolder(folder, "merge")).toThrow(`${folder} is being written by another perceptron-lab (run, pid ${process.pid}`);
    lock.release();
    expect(existsSync(join(folder, LOCK_FOLDER))).toBe(false);
  });

  it("takes over only under the takeover folder: refused while another process holds it, the dead lock left as it was", () => {
    // Two writers that found the same dead holder: the second must not remove what the first put in its place.
    const { folder, pid } = deadHoldersFolder();
    mkdirSync(join(folder, TAKEOVER_FOLDER));
    expect(() => lockResultFolder(folder, "run")).toThrow(`${folder}: another perceptron-lab is taking over this folder's lock at this moment: try again in a few seconds`);
    expect(holderPid(folder)).toBe(pid);
    // A takeover folder left by a process killed within its milliseconds: removed once old, and the takeover goes on.
    const old = (Date.now() - 20_000) / 1000;
    utimesSync(join(folder, TAKEOVER_FOLDER), old, old);
    const lock = lockResultFolder(folder, "run");
    expect(lock.note).toContain(`pid ${pid}`);
    expect(holderPid(folder)).toBe(process.pid);
    expect(existsSync(join(folder, TAKEOVER_FOLDER))).toBe(false);
    lock.release();
  });

  it("never replaces an empty lock folder in silence: refused while fresh, taken over with a note once stale", () => {
    // rename() replaces an empty folder: 0.12.2 took a lock folder with no note inside over at once, saying nothing.
    const folder = temporaryFolder();
    mkdirSync(join(folder, LOCK_FOLDER));
    expect(() => lockResultFolder(folder, "run")).toThrow(
      `${folder} is locked (${LOCK_FOLDER} exists, with no note of who holds it): if no perceptron-lab is writing here, it is taken over once it is 60 s old, or remove ${join(folder, LOCK_FOLDER)}`,
    );
    expect(existsSync(join(folder, LOCK_FOLDER, "holder.json"))).toBe(false);
    // Made long ago (a fixed date, past the 60 s of staleness whatever the clock says now).
    const old = new Date("2026-01-01T00:00:00Z");
    utimesSync(join(folder, LOCK_FOLDER), old, old);
    const lock = lockResultFolder(folder, "run");
    const age = Number(/^took over a stale lock \(not refreshed for (\d+) s\) of an unknown process$/.exec(lock.note ?? "")?.[1]);
    expect(age).toBeGreaterThan(60);
    expect(holderPid(folder)).toBe(process.pid);
    lock.release();
  });
});
