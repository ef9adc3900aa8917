import { statSync } from "node:fs";
import { WriteError } from "../files/write-error.js";
import { closeFile, closeQuietly, createFile, syncFile, writeAll } from "../files/checked-fs.js";

/**
 * A text file written in order through a buffer, with synchronous, checked writes (see checked-fs.ts):
 * no interleaving, no backpressure, a failed or short write throws a WriteError naming the file, and only
 * whole lines ever reach the file (a process that exits between writes leaves complete lines; only a kill
 * or a full disk in the middle of a write can tear the last one, which readers drop). `sync` flushes and
 * asks the OS to put the bytes on disk. Never opened through a symlink.
 */
export class LineFile {
  readonly #fd: number;
  /** Text, or UTF-8 bytes (run lines as the workers encoded them); kept in order until a flush. */
  #buffer: (string | Uint8Array)[] = [];
  #size = 0;
  /** Bytes handed to the system so far: the file's size once closed. */
  #bytes = 0;
  #closed = false;

  constructor(readonly path: string, private readonly flushAt = 1 << 16) {
    this.#fd = createFile(path);
  }

  write(text: string | Uint8Array): void {
    this.#buffer.push(text);
    this.#size += text.length;
    if (this.#size >= this.flushAt) this.flush();
  }

  flush(): void {
    if (this.#buffer.length === 0) return;
    const chunks = this.#buffer;
    this.#buffer = [];
    this.#size = 0;
    // One write of the whole buffer: joined as text when it is all text, else as bytes.
    const data = chunks.every((chunk) => typeof chunk === "string")
      ? chunks.join("")
      : chunks.length === 1
        ? (chunks[0] as Uint8Array)
        : Buffer.concat(chunks.map((chunk) => (typeof chunk === "string" ? Buffer.from(chunk, "utf8") : chunk)));
    this.#bytes += writeAll(this.#fd, this.path, data);
  }

  sync(): void {
    this.flush();
    syncFile(this.#fd, this.path);
  }

  /** Flushes, syncs and closes the file, then checks that its size on disk is every byte written. */
  close(): void {
    this.sync();
    this.#closed = true;
    closeFile(this.#fd, this.path);
    const size = statSync(this.path, { throwIfNoEntry: false })?.size;
    if (size !== this.#bytes) throw new WriteError(this.path, "close", "short", `${size ?? "no"} bytes on disk, ${this.#bytes} written`);
  }

  /** After a failure: closes the file without writing what is buffered (the failure is what gets told). */
  abandon(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#buffer = [];
    closeQuietly(this.#fd);
  }
}
