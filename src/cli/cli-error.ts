/** Exit codes of every command. */
export const EXIT = { ok: 0, failed: 1, usage: 2, internal: 3, interrupted: 130 } as const;

/** A usage mistake caught by the CLI itself (a flag out of range): exit code 2. */
export class UsageError extends Error {
  override readonly name = "UsageError";
}
