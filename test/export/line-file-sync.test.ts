import { readdirSync, readFileSync, readlinkSync, statSync } from "node:fs";
import { join } from "node:path";
import { afterEach, describe, expect, it, vi } from "vitest";
import { LineFile } from "../../src/export/line-file.js";
import { temporaryFolder } from "../helpers.js";

/**
 * LineFile.syncInBackground, with node:fs's fsync wrapped: each background sync is held until the test
 * lets it finish (so "in flight" is a state the test controls, not a race), and may be made to fail
 * as a disk does (EIO). The foreground fsyncSync stays the real one.
 */
const held: { fd: number; finish: (code: string | null) => Promise<void> }[] = [];
vi.mock("node:fs", async (original) => {
  const fs = await original<typeof import("node:fs")>();
  // finish resolves once LineFile's callback has run (it closes what it closes synchronously there): the test
  // waits on that event, never on a fixed time (a 20 ms sleep was too short on a loaded machine).
  const fsync = (fd: number, callback: (error: NodeJS.ErrnoException | null) => void) =>
    held.push({
      fd,
      finish: (code) =>
        new Promise<void>((resolve) => {
          const done = (error: NodeJS.ErrnoException | null) => {
            callback(error);
            resolve();
          };
          if (code === null) fs.fsync(fd, done);
          else setImmediate(() => done(Object.assign(new Error(`${code}: i/o error`), { code })));
        }),
    });
  return { ...fs, fsync, default: { ...fs, fsync } };
});

/**
 * The descriptors this process holds open on `path`. Counted by path, not in total: other test files run in
 * this process at the same time (vitest's worker threads) and open and close descriptors of their own.
 */
function descriptorsOn(path: string): number {
  let count = 0;
  for (const fd of readdirSync("/proc/self/fd")) {
    try {
      if (readlinkSync(`/proc/self/fd/${fd}`) === path) count++;
    } catch {
      // Closed meanwhile.
    }
  }
  return count;
}

afterEach(() => {
  held.length = 0;
});

describe("LineFile.syncInBackground", () => {
  it("flushes at once, syncs one at a time on a descriptor of its own, and leaves no descriptor open after close", async () => {
    const path = join(temporaryFolder(), "lines.txt");
    const file = new LineFile(path, 1024);
    file.write("one\n");
    expect(statSync(path).size).toBe(0);
    file.syncInBackground();
    expect(readFileSync(path, "utf8")).toBe("one\n");
    expect(held.length).toBe(1);
    // Writing goes on while the sync is in flight; a second request waits for the first to finish.
    file.write("two\n");
    file.syncInBackground();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
    expect(held.length).toBe(1);
    // Synced through a read-only descriptor of the same file (the writer's own is write-only).
    expect(readlinkSync(`/proc/self/fd/${held[0]!.fd}`)).toBe(path);
    expect(Number.parseInt(/^flags:\s+(\d+)$/m.exec(readFileSync(`/proc/self/fdinfo/${held[0]!.fd}`, "utf8"))![1]!, 8) & 3).toBe(0);
    await held[0]!.finish(null);
    file.syncInBackground();
    expect(held.length).toBe(2);
    expect(held[1]!.fd).toBe(held[0]!.fd);
    // Closed while a sync is in flight: the sync's descriptor stays open until the sync ends.
    file.write("three\n");
    file.close();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\nthree\n");
    expect(descriptorsOn(path)).toBe(1);
    await held[1]!.finish(null);
    expect(descriptorsOn(path)).toBe(0);
  });

  it("throws a failed background sync from the next write, sync or close, as a WriteError naming the file", async () => {
    const folder = temporaryFolder();
    for (const next of ["write", "sync", "syncInBackground", "close"] as const) {
      const path = join(folder, `${next}.txt`);
      const file = new LineFile(path, 1024);
      file.write("kept\n");
      file.syncInBackground();
      await held.at(-1)!.finish("EIO");
      const act = {
        write: () => file.write("more\n"),
        sync: () => file.sync(),
        syncInBackground: () => file.syncInBackground(),
        close: () => file.close(),
      }[next];
      expect(act).toThrow(`${path}: sync failed: input/output error (EIO)`);
      // It stays failed: the file is abandoned, as the sweep does after a WriteError.
      expect(() => file.close()).toThrow("sync failed");
      file.abandon();
      expect(readFileSync(path, "utf8")).toBe("kept\n");
    }
  });
});
