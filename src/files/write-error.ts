import { constants } from "node:os";

/**
 * A write to a result folder failed or came up short (ENOSPC, EIO, EFBIG, EROFS, the folder removed…).
 * The message is one line naming the file and the cause. What was written before it stays whole on disk:
 * the folder resumes once the cause is fixed. The CLI prints it and exits with code 1.
 */
export class WriteError extends Error {
  override readonly name = "WriteError";

  constructor(
    readonly path: string,
    /** What was being done: "write", "sync", "close", "create", "rename", "remove". */
    readonly operation: string,
    /** The system's error code (ENOSPC, EIO, …), or "short" for a write that wrote less and reported nothing. */
    readonly code: string,
    readonly detail: string,
  ) {
    super(`${path}: ${operation} failed: ${detail}`);
  }

  /** The same error, its message followed by what to do about it. */
  withHint(hint: string): WriteError {
    return new WriteError(this.path, this.operation, this.code, `${this.detail}. ${hint}`);
  }

  /** Wraps a system error of `operation` on `path`. */
  static of(path: string, operation: string, error: unknown): WriteError {
    if (error instanceof WriteError) return error;
    const code = errorCode(error as NodeJS.ErrnoException);
    const reason = DESCRIPTIONS[code] ?? (error instanceof Error ? error.message : String(error));
    return new WriteError(path, operation, code, `${reason} (${code})`);
  }
}

const DESCRIPTIONS: Record<string, string> = {
  ENOSPC: "no space left on the device",
  EDQUOT: "disk quota exceeded",
  EIO: "input/output error",
  EFBIG: "file too large",
  EROFS: "read-only file system",
  ENOENT: "the folder does not exist (removed?)",
  EACCES: "permission denied",
  EPERM: "operation not permitted",
};

/**
 * A system error's code. libuv names the errors it knows; others (EDQUOT, a quota exceeded, on some builds)
 * come as "UNKNOWN" with the system's number, named here from the system's own table of errno values.
 */
export function errorCode(error: NodeJS.ErrnoException): string {
  const code = error?.code;
  if (code !== undefined && code !== "UNKNOWN") return code;
  const errno = typeof error?.errno === "number" ? Math.abs(error.errno) : undefined;
  const named = errno === undefined ? undefined : Object.entries(constants.errno).find(([, value]) => value === errno)?.[0];
  return named ?? code ?? "unknown";
}
