import { statSync } from "node:fs";
import { WriteError } from "../files/write-error.js";
import { closeFile, closeQuietly, createFile, openForSync, syncFile, syncFileInBackground, writeAll } from "../files/checked-fs.js";

const UTF8 = new TextEncoder();

/**
 * A text file written in order through a buffer, with synchronous, checked writes (see checked-fs.ts):
 * no interleaving, no backpressure, a failed or short write throws a WriteError naming the file, and only
 * whole lines ever reach the file (a process that exits between writes leaves complete lines; only a kill
 * or a full disk in the middle of a write can tear the last one, which readers drop). `sync` flushes and
 * asks the OS to put the bytes on disk; `syncInBackground` asks it without waiting. Never opened through a
 * symlink.
 */
export class LineFile {
  readonly #fd: number;
  /**
   * The bytes not yet handed to the system, in order: #pending[0, #size). Every write is copied in (text
   * encoded as UTF-8), so the caller may reuse what it passed at once (the sweep frees a worker's ring slot
   * as soon as its lines are written: src/pool/output-ring.ts), and a flush allocates nothing (it used to
   * join what it kept into a new buffer).
   */
  readonly #pending: Uint8Array;
  #size = 0;
  /** Bytes handed to the system so far: the file's size once closed. */
  #bytes = 0;
  #closed = false;
  /** A second, read-only descriptor of the file for syncs in the background, opened at the first. */
  #syncFd: number | null = null;
  /** Whether a background sync is in flight (one at a time). */
  #syncing = false;
  /** What a background sync failed with, thrown by the next write, sync or close. */
  #syncFailure: WriteError | null = null;

  constructor(readonly path: string, private readonly flushAt = 1 << 16) {
    this.#fd = createFile(path);
    this.#pending = new Uint8Array(2 * flushAt);
  }

  /** Whole lines (text, or their UTF-8 bytes): they reach the file in one write with what is pending, never split. */
  write(text: string | Uint8Array): void {
    if (this.#syncFailure !== null) throw this.#syncFailure;
    if (!this.#append(text)) {
      this.flush();
      // Larger than the buffer: written at once, on its own.
      if (!this.#append(text)) this.#bytes += writeAll(this.#fd, this.path, text);
    }
    if (this.#size >= this.flushAt) this.flush();
  }

  /** Copies `text` after the pending bytes when it fits whole; false (nothing added) when it does not. */
  #append(text: string | Uint8Array): boolean {
    const room = this.#pending.length - this.#size;
    // At least one byte per UTF-16 unit: a text longer than the room cannot fit.
    if (text.length > room) return false;
    if (typeof text !== "string") {
      this.#pending.set(text, this.#size);
      this.#size += text.length;
      return true;
    }
    // encodeInto stops before a character that does not fit (and writes U+FFFD for a lone surrogate, as Buffer.from does).
    const { read, written } = UTF8.encodeInto(text, this.#pending.subarray(this.#size));
    if (read < text.length) return false;
    this.#size += written;
    return true;
  }

  flush(): void {
    if (this.#size === 0) return;
    const size = this.#size;
    this.#size = 0;
    this.#bytes += writeAll(this.#fd, this.path, this.#pending.subarray(0, size));
  }

  sync(): void {
    if (this.#syncFailure !== null) throw this.#syncFailure;
    this.flush();
    syncFile(this.#fd, this.path);
  }

  /**
   * Flushes, and starts a sync that runs in libuv's thread pool while the writer goes on (none when the last
   * is still in flight): a sweep's coordinator used to wait in fsync every second while the system wrote
   * back the second's ~20 MB of tables, and its threads for the coordinator. A failure is thrown by the next
   * write, sync or close; close still syncs in the foreground, so a closed file's bytes are on disk, and the
   * system reports a write-back failure to that sync too. Its own descriptor (openForSync), so that close
   * never closes a descriptor a sync still uses.
   */
  syncInBackground(): void {
    if (this.#syncFailure !== null) throw this.#syncFailure;
    this.flush();
    if (this.#syncing) return;
    this.#syncFd ??= openForSync(this.path);
    syncFileInBackground(this.#syncFd, this.path, (failure) => {
      this.#syncing = false;
      this.#syncFailure ??= failure;
      if (this.#closed) this.#closeSyncFd();
    });
    this.#syncing = true;
  }

  /** Closes the background syncs' descriptor, once none is in flight (else their callback does). */
  #closeSyncFd(): void {
    if (this.#syncing || this.#syncFd === null) return;
    closeQuietly(this.#syncFd);
    this.#syncFd = null;
  }

  /** Flushes, syncs and closes the file, then checks that its size on disk is every byte written. */
  close(): void {
    this.sync();
    this.#closed = true;
    this.#closeSyncFd();
    closeFile(this.#fd, this.path);
    const size = statSync(this.path, { throwIfNoEntry: false })?.size;
    if (size !== this.#bytes) throw new WriteError(this.path, "close", "short", `${size ?? "no"} bytes on disk, ${this.#bytes} written`);
  }

  /** After a failure: closes the file without writing what is buffered (the failure is what gets told). */
  abandon(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#size = 0;
    this.#closeSyncFd();
    closeQuietly(this.#fd);
  }
}
