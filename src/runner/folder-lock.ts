import * as fs from "node:fs";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, statSync, writeFileSync } from "node:fs";
import { hostname } from "node:os";
import { join } from "node:path";
import { createRequire } from "node:module";
import { InputError } from "../vocabulary/input-error.js";
import { removePath } from "../files/checked-fs.js";
import { WriteError } from "../files/write-error.js";

/**
 * proper-lockfile, required when a folder is first locked rather than imported by every command that may
 * lock one: as it loads, signal-exit installs its own SIGINT and SIGTERM handlers, and a JavaScript handler
 * waits for the event loop. Loaded at start-up, it kept a command deaf to Ctrl-C through a long synchronous
 * stretch before any lock (the planning of a grid of 10⁷ points: ~40 s); without it, a signal ends such a
 * command at once, before it has written anything.
 */
const lockfile = (): typeof import("proper-lockfile") => createRequire(import.meta.url)("proper-lockfile") as typeof import("proper-lockfile");

/** The lock: a folder of the result folder (proper-lockfile's), holding a note of who holds it. */
export const LOCK_FOLDER = ".perceptron-lab.lock";
/** The note, inside the lock folder: it exists exactly as long as the lock does. */
const HOLDER_FILE = "holder.json";
/** The prefix of the folder a lock is prepared in before it is renamed into place. */
export const LOCK_STAGING = `${LOCK_FOLDER}.new-`;
/**
 * The folder a takeover holds while it removes a dead or stale lock and takes its own (mkdir: one process
 * at a time). Without it two processes that both found the same dead holder could each remove the lock
 * and the second one remove the first one's new lock: both wrote.
 */
export const TAKEOVER_FOLDER = `${LOCK_FOLDER}.takeover`;
/** A takeover folder older than this was left by a process killed in its few milliseconds: removed. */
const TAKEOVER_STALE_MS = 10_000;

/**
 * A lock whose holder stopped refreshing it this long ago is stale and taken over. The holder refreshes it
 * every STALE_MS / 2 from its event loop, which the longest synchronous stretch of a sweep (a grid point's
 * summary) keeps far shorter than this. A holder on this host that is no longer running is stale at once.
 */
const STALE_MS = 60_000;

interface Holder {
  readonly pid: number;
  readonly host: string;
  readonly since: string;
  readonly command: string;
}

export interface FolderLock {
  /** What the lock's taking said (a stale lock taken over), or null. */
  readonly note: string | null;
  /** Throws if another process took the lock over meanwhile (this one was stalled past STALE_MS). */
  check(): void;
  release(): void;
}

/**
 * Locks a result folder for one writer (run, resume, overwrite, merge, report, rerun's output): a second
 * writer is refused with one line naming the holder (pid, host, since when). A lock left by a process
 * that died (same host, pid gone) or that stopped refreshing it for STALE_MS is taken over, and `note`
 * says so. The folder is created if needed. The lock goes with the process: proper-lockfile removes it
 * on exit, and a kill leaves one that the next writer takes over.
 */
export function lockResultFolder(outDir: string, command: string): FolderLock {
  try {
    mkdirSync(outDir, { recursive: true });
  } catch (error) {
    throw new InputError(`${outDir}: cannot create the result folder (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const lockPath = join(outDir, LOCK_FOLDER);
  const holderPath = join(lockPath, HOLDER_FILE);
  let compromised: Error | null = null;
  const holder: Holder = { pid: process.pid, host: hostname(), since: new Date().toISOString(), command };
  const take = () => {
    try {
      return lockfile().lockSync(outDir, {
        lockfilePath: lockPath,
        realpath: false,
        stale: STALE_MS,
        fs: lockFileSystem(holder),
        onCompromised: (error) => {
          compromised = error;
        },
      });
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "ELOCKED") throw lockError(outDir, error);
      const other = readHolder(holderPath);
      if (other === null) {
        throw new InputError(
          `${outDir} is locked (${LOCK_FOLDER} exists, with no note of who holds it): if no perceptron-lab is writing here, it is taken over once it is ${STALE_MS / 1000} s old, or remove ${join(outDir, LOCK_FOLDER)}`,
        );
      }
      throw new InputError(`${outDir} is being written by another perceptron-lab (${describe(other)}): wait for it to finish, or stop it`);
    }
  };
  let note: string | null = null;
  let release: () => void;
  const seen = existsSync(lockPath) ? { holder: readHolder(holderPath), mtime: lockAge(lockPath) } : null;
  const dead = (found: Holder | null) => found !== null && found.host === hostname() && !isRunning(found.pid);
  if (seen !== null && (dead(seen.holder) || Date.now() - seen.mtime > STALE_MS)) {
    // A takeover: under the takeover folder, and only of the lock judged dead or stale (the same holder,
    // not refreshed since), removed and replaced by this process's own before another may look.
    release = underTakeover(outDir, () => {
      const now = existsSync(lockPath) ? { holder: readHolder(holderPath), mtime: lockAge(lockPath) } : null;
      if (now !== null && sameHolder(now.holder, seen.holder) && now.mtime === seen.mtime) {
        const age = Date.now() - now.mtime;
        note = dead(now.holder)
          ? `took over the lock of ${describe(now.holder!)}, which is no longer running`
          : `took over a stale lock (not refreshed for ${Math.round(age / 1000)} s) of ${now.holder === null ? "an unknown process" : describe(now.holder)}`;
        removePath(lockPath, { recursive: true });
      }
      return take();
    });
  } else {
    release = take();
  }
  let released = false;
  return {
    note,
    check() {
      if (compromised !== null) {
        throw new InputError(`${outDir}: another process took over this folder's lock (${(compromised as Error).message}); this command stopped writing`);
      }
    },
    release() {
      if (released) return;
      released = true;
      // Best effort: the command's work is done (or failed for its own reason); a lock left behind is
      // taken over by the next writer, since this process will be gone.
      try {
        release();
      } catch {
        // already released or taken over, or the folder is gone: nothing of ours to remove
      }
    },
  };
}

/**
 * Runs a takeover holding TAKEOVER_FOLDER: a second process taking over the same folder meanwhile is refused
 * (it would find this one's new lock anyway); a takeover folder left by a killed process is removed once old.
 */
function underTakeover<T>(outDir: string, work: () => T): T {
  const mutex = join(outDir, TAKEOVER_FOLDER);
  try {
    mkdirSync(mutex);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw lockError(outDir, error);
    if (Date.now() - lockAge(mutex) <= TAKEOVER_STALE_MS) {
      throw new InputError(`${outDir}: another perceptron-lab is taking over this folder's lock at this moment: try again in a few seconds`);
    }
    rmSync(mutex, { recursive: true, force: true });
    mkdirSync(mutex);
  }
  try {
    return work();
  } finally {
    rmSync(mutex, { recursive: true, force: true });
  }
}

function sameHolder(a: Holder | null, b: Holder | null): boolean {
  return a === null || b === null ? a === b : a.pid === b.pid && a.host === b.host && a.since === b.since;
}

/**
 * The file system proper-lockfile works through, but for how a lock folder is made and removed: it is
 * prepared with its holder's note inside, then renamed into place, so that the lock and the note of who
 * holds it appear at once (a kill in between leaves only a staging folder, which the next writer
 * removes); a rename onto an existing lock fails as mkdir would (EEXIST). It is removed with its note.
 */
function lockFileSystem(holder: Holder): typeof fs {
  return {
    ...fs,
    mkdirSync(path: fs.PathLike) {
      // rename() replaces an empty folder without a word: an empty lock folder (a process killed as it made
      // one by hand, or a user's mkdir) would be taken over in silence. It is a lock like any other: refused
      // while fresh, taken over once stale, with a note. (No perceptron-lab makes an empty one, so the
      // check and the rename race with nobody of ours.)
      if (existsSync(path)) throw Object.assign(new Error(`EEXIST: ${String(path)} exists`), { code: "EEXIST" });
      const staging = mkdtempSync(`${String(path)}.new-`);
      try {
        writeFileSync(join(staging, HOLDER_FILE), `${JSON.stringify(holder)}\n`);
        renameSync(staging, path);
      } catch (error) {
        rmSync(staging, { recursive: true, force: true });
        const code = (error as NodeJS.ErrnoException).code;
        if (code === "ENOTEMPTY" || code === "EEXIST") throw Object.assign(new Error(`EEXIST: ${String(path)} exists`), { code: "EEXIST" });
        throw error;
      }
      return undefined;
    },
    rmdirSync(path: fs.PathLike) {
      rmSync(path, { recursive: true });
    },
  } as typeof fs;
}

/**
 * Who holds a result folder's lock and whether it is live (refreshed within STALE_MS, and, on this host,
 * its process still running), or null when the folder is not locked. For `check`, which only reads.
 */
export function lockState(outDir: string): { readonly holder: string; readonly live: boolean; readonly ageSeconds: number } | null {
  const lockPath = join(outDir, LOCK_FOLDER);
  if (!existsSync(lockPath)) return null;
  const holder = readHolder(join(lockPath, HOLDER_FILE));
  const ageMs = Date.now() - lockAge(lockPath);
  const gone = holder !== null && holder.host === hostname() && !isRunning(holder.pid);
  return { holder: holder === null ? "an unknown process" : describe(holder), live: !gone && ageMs <= STALE_MS, ageSeconds: Math.max(0, Math.round(ageMs / 1000)) };
}

function describe(holder: Holder): string {
  return `${holder.command}, pid ${holder.pid} on ${holder.host}, since ${holder.since}`;
}

function readHolder(path: string): Holder | null {
  try {
    const holder = JSON.parse(readFileSync(path, "utf8")) as Holder;
    return typeof holder.pid === "number" && typeof holder.host === "string" ? holder : null;
  } catch {
    return null;
  }
}

function lockAge(path: string): number {
  try {
    return statSync(path).mtimeMs;
  } catch {
    return Date.now();
  }
}

/** Whether a process of this host runs under `pid` (signal 0 checks without sending). */
function isRunning(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** The system's refusals of a write: a full disk, a quota, a read-only or failing device. */
const WRITE_REFUSALS = new Set(["ENOSPC", "EDQUOT", "EROFS", "EIO", "EFBIG"]);

/**
 * Why the lock could not be taken: a refused write (the disk is full, say) is a WriteError, as every
 * write of the sweep reports it (exit code 1, what to fix); anything else (a permission, a path) is the
 * user's to fix in what was given (InputError).
 */
function lockError(outDir: string, error: unknown): Error {
  const code = (error as NodeJS.ErrnoException).code;
  if (code !== undefined && WRITE_REFUSALS.has(code)) return WriteError.of(outDir, "lock the result folder", error);
  return new InputError(`${outDir}: cannot lock the result folder (${code ?? String(error)})`);
}
