import { closeSync, constants, fsync, fsyncSync, lstatSync, mkdirSync, openSync, renameSync, rmSync, writeSync } from "node:fs";
import { dirname } from "node:path";
import { FAULT_POINTS_ACTIVE, faultPoint } from "./fault-points.js";
import { WriteError } from "./write-error.js";

/**
 * The file operations that write a result folder, each checked: a failure or a short write throws a
 * WriteError naming the file and the cause, never passes in silence. Node's writeSync returns the bytes
 * written, which a full disk makes fewer than asked without an error; here the rest is written again
 * until the system either takes it or reports why not.
 */

/** Create (or truncate) a file for writing. `exclusive`: the file must not exist. Never follows a symlink. */
export function createFile(path: string, { exclusive = false, mode = 0o644 } = {}): number {
  return checked("create", path, () =>
    openSync(path, constants.O_WRONLY | constants.O_CREAT | constants.O_NOFOLLOW | (exclusive ? constants.O_EXCL : constants.O_TRUNC), mode),
  );
}

/** Writes all of `data` at the file's current end (or at `position`); returns the bytes written. */
export function writeAll(fd: number, path: string, data: string | Uint8Array, position: number | null = null): number {
  const bytes = typeof data === "string" ? Buffer.from(data, "utf8") : data;
  return checked("write", path, () => {
    let done = 0;
    while (done < bytes.byteLength) {
      const wrote = writeSync(fd, bytes, done, bytes.byteLength - done, position === null ? null : position + done);
      if (wrote <= 0) throw new WriteError(path, "write", "short", `wrote ${done} of ${bytes.byteLength} bytes`);
      done += wrote;
    }
    return done;
  });
}

/** Asks the system to put the file's bytes on disk. */
export function syncFile(fd: number, path: string): void {
  checked("sync", path, () => fsyncSync(fd));
}

/**
 * Opens a file of ours for syncFileInBackground: a descriptor of its own is never closed under a sync in
 * flight by the writer's close (nor reused for another file). Read-only, since fsync needs no write access,
 * except on Windows, whose FlushFileBuffers does. Never follows a symlink. Checked as part of a sync (a
 * failure says "sync failed").
 */
export function openForSync(path: string): number {
  const access = process.platform === "win32" ? constants.O_RDWR : constants.O_RDONLY;
  return checked("sync", path, () => openSync(path, access | constants.O_NOFOLLOW));
}

/**
 * Starts syncing the file's bytes to disk in libuv's thread pool and returns at once; `done` gets the
 * failure as a WriteError, or null. A failure to start (a test's fault point included) throws here.
 */
export function syncFileInBackground(fd: number, path: string, done: (error: WriteError | null) => void): void {
  checked("sync", path, () => fsync(fd, (error) => done(error === null ? null : WriteError.of(path, "sync", error))));
}

export function closeFile(fd: number, path: string): void {
  checked("close", path, () => closeSync(fd));
}

/** Renames within one folder, then syncs the folder, so that the new name survives a crash. */
export function renameDurably(from: string, to: string): void {
  checked("rename", to, () => renameSync(from, to));
  syncFolder(dirname(to));
}

/** Syncs a folder's entries (a new, renamed or removed name) to disk. */
export function syncFolder(folder: string): void {
  checked("sync", folder, () => {
    const fd = openSync(folder, constants.O_RDONLY | constants.O_DIRECTORY);
    try {
      fsyncSync(fd);
    } finally {
      closeSync(fd);
    }
  });
}

/**
 * Removes a file (or, `recursive`, a folder of ours); one already gone is fine. Removing what is not there
 * changes nothing and cannot fail, so under the test hooks it is no fault point: a kill aimed before it would
 * leave the same folder as one aimed before the next operation (a fresh run removes ~30 leftovers it never made).
 */
export function removePath(path: string, { recursive = false } = {}): void {
  if (FAULT_POINTS_ACTIVE && lstatSync(path, { throwIfNoEntry: false }) === undefined) return;
  checked("remove", path, () => rmSync(path, { force: true, recursive }));
}

/** Closes a file after a failure, reporting nothing: the first error is the one to tell. */
export function closeQuietly(fd: number): void {
  try {
    closeSync(fd);
  } catch {
    // already reported
  }
}

function checked<T>(operation: string, path: string, action: () => T): T {
  try {
    faultPoint(operation, path);
    return action();
  } catch (error) {
    throw WriteError.of(path, operation, error);
  }
}

/** Creates a folder (and its parents) for results. */
export function makeFolder(path: string): void {
  checked("create", path, () => mkdirSync(path, { recursive: true }));
}
