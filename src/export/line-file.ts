import { closeSync, fsyncSync, openSync, writeSync } from "node:fs";

/**
 * A text file written in order through a buffer, with synchronous writes: no interleaving, no
 * backpressure, and only whole lines ever reach the file (a process that exits between writes leaves
 * complete lines; only a kill in the middle of a write can tear the last one). `sync` flushes and asks
 * the OS to put the bytes on disk.
 */
export class LineFile {
  readonly #fd: number;
  #buffer: string[] = [];
  #size = 0;

  constructor(readonly path: string, private readonly flushAt = 1 << 16) {
    this.#fd = openSync(path, "w");
  }

  write(text: string): void {
    this.#buffer.push(text);
    this.#size += text.length;
    if (this.#size >= this.flushAt) this.flush();
  }

  flush(): void {
    if (this.#buffer.length === 0) return;
    writeSync(this.#fd, this.#buffer.join(""));
    this.#buffer = [];
    this.#size = 0;
  }

  sync(): void {
    this.flush();
    fsyncSync(this.#fd);
  }

  close(): void {
    this.sync();
    closeSync(this.#fd);
  }
}
