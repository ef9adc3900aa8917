import { readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { LineFile } from "../../src/export/line-file.js";
import { temporaryFolder } from "../helpers.js";

const UTF8 = new TextEncoder();

describe("LineFile", () => {
  it("writes every text and byte write, in order, as UTF-8, whatever the caller does with its bytes afterwards", () => {
    const path = join(temporaryFolder(), "lines.txt");
    const file = new LineFile(path, 64);
    const expected: Uint8Array[] = [];
    const reused = new Uint8Array(40);
    const writes: (string | (() => Uint8Array))[] = [
      "a,b\n",
      "é, 漢字, 😀\n",
      // A lone surrogate: U+FFFD, as Buffer.from and TextEncoder write it.
      "x\uD800y\n",
      () => UTF8.encode("bytes\n"),
      "z".repeat(100) + "\n", // longer than the whole buffer (2 × 64): written on its own
      "tail\n",
    ];
    for (let round = 0; round < 20; round++) {
      for (const write of writes) {
        if (typeof write === "string") {
          file.write(write);
          expected.push(UTF8.encode(write));
        } else {
          // The caller's buffer is overwritten after each write: what was written must not change.
          const bytes = write();
          reused.fill(0x30 + round, 0, reused.length);
          reused.set(bytes);
          file.write(reused.subarray(0, bytes.length));
          expected.push(bytes);
          reused.fill(0x21);
        }
      }
    }
    file.close();
    expect(readFileSync(path)).toEqual(Buffer.concat(expected));
  });

  it("keeps writes below the flush size until a flush, sync or close, then writes them at once", () => {
    const path = join(temporaryFolder(), "lines.txt");
    const file = new LineFile(path, 1024);
    file.write("one\n");
    file.write(UTF8.encode("two\n"));
    expect(statSync(path).size).toBe(0);
    file.sync();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n");
    file.write("x".repeat(1500) + "\n");
    // Past the flush size: on disk at once.
    expect(statSync(path).size).toBe(8 + 1501);
    file.close();
    expect(readFileSync(path, "utf8")).toBe("one\ntwo\n" + "x".repeat(1500) + "\n");
  });
});
