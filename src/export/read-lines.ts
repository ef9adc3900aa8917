import { closeSync, openSync, readSync } from "node:fs";
import { StringDecoder } from "node:string_decoder";

/**
 * The complete lines of a text file, read lazily in 1 MiB chunks. A last line without its newline is a
 * record torn by a kill in the middle of a write: it is not yielded.
 */
export class LineReader implements Iterable<string> {
  constructor(readonly path: string) {}

  *[Symbol.iterator](): Iterator<string> {
    const fd = openSync(this.path, "r");
    const chunk = Buffer.alloc(1 << 20);
    // The decoder keeps a character split across two chunks whole.
    const decoder = new StringDecoder("utf8");
    let rest = "";
    try {
      for (;;) {
        const read = readSync(fd, chunk, 0, chunk.length, null);
        if (read === 0) break;
        const text = rest + decoder.write(chunk.subarray(0, read));
        const lines = text.split("\n");
        rest = lines.pop()!;
        yield* lines;
      }
    } finally {
      closeSync(fd);
    }
  }
}
