import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

export interface LineReaderOptions {
  /** Bytes read at a time (default 1 MiB); a line longer than a chunk is still read whole, over several chunks. */
  readonly chunkBytes?: number;
  /**
   * Open the file for each chunk and close it again (default false: open while iterating). A merge of
   * thousands of shards reads them all side by side; reopening keeps it to one descriptor at a time,
   * whatever `ulimit -n` says.
   */
  readonly reopen?: boolean;
  /**
   * Read into this buffer (at least chunkBytes long) rather than one of the reader's own: readers that
   * take turns, as a merge's do, can share one, since a chunk is decoded before the next read.
   */
  readonly buffer?: Buffer;
  /** Where to start reading, in bytes (default 0): at the start of a line (merge reads a shard a block at a time). */
  readonly start?: number;
}

/**
 * The complete lines of a text file, read lazily a chunk at a time. A last line without its newline is a
 * record torn by a kill in the middle of a write: it is not yielded.
 */
export class LineReader implements Iterable<string> {
  readonly #chunkBytes: number;
  readonly #reopen: boolean;
  readonly #buffer: Buffer | null;
  readonly #start: number;

  constructor(
    readonly path: string,
    { chunkBytes = 1 << 20, reopen = false, buffer, start = 0 }: LineReaderOptions = {},
  ) {
    this.#chunkBytes = chunkBytes;
    this.#reopen = reopen;
    this.#buffer = buffer ?? null;
    this.#start = start;
  }

  *[Symbol.iterator](): Iterator<string> {
    const chunk = this.#buffer === null ? Buffer.alloc(this.#chunkBytes) : this.#buffer.subarray(0, this.#chunkBytes);
    // The decoder keeps a character split across two chunks whole.
    const decoder = new StringDecoder("utf8");
    let rest = "";
    let position = this.#start;
    const fd = this.#reopen ? null : openSync(this.path, "r");
    try {
      for (;;) {
        let read: number;
        if (fd === null) {
          const once = openSync(this.path, "r");
          try {
            read = readSync(once, chunk, 0, chunk.length, position);
          } finally {
            closeSync(once);
          }
        } else {
          read = readSync(fd, chunk, 0, chunk.length, position);
        }
        if (read === 0) break;
        position += read;
        const text = rest + decoder.write(chunk.subarray(0, read));
        const lines = text.split("\n");
        rest = lines.pop()!;
        yield* lines;
      }
    } finally {
      if (fd !== null) closeSync(fd);
    }
  }
}
