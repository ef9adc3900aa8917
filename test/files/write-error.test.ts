import { constants } from "node:os";
import { describe, expect, it } from "vitest";
import { errorCode, WriteError } from "../../src/files/write-error.js";

describe("WriteError: a refused write said in words", () => {
  it("names an error libuv calls UNKNOWN from its number (EDQUOT, a quota exceeded), not 'unknown error'", () => {
    // What a write past a user's quota threw (audit of 0.12.2): libuv has no name for errno 122 there.
    const quota = Object.assign(new Error("UNKNOWN: unknown error, write"), { code: "UNKNOWN", errno: -constants.errno.EDQUOT, syscall: "write" });
    const error = WriteError.of("results/x/runs.jsonl", "write", quota);
    expect(error.message).toBe("results/x/runs.jsonl: write failed: disk quota exceeded (EDQUOT)");
    expect(error.code).toBe("EDQUOT");
    expect(errorCode(Object.assign(new Error("x"), { code: "ENOSPC", errno: -28 }))).toBe("ENOSPC");
    // A number the system does not name, and no number at all, stay as they came.
    expect(errorCode(Object.assign(new Error("x"), { code: "UNKNOWN", errno: -99999 }))).toBe("UNKNOWN");
    expect(WriteError.of("f", "write", new Error("odd")).message).toBe("f: write failed: odd (unknown)");
  });
});
