import { readFileSync, statSync } from "node:fs";
import { InputError } from "../vocabulary/input-error.js";

/** A user's file as text, or an InputError naming it and why it cannot be read (`ENOENT`, `EACCES`, …). */
export function readInputFile(path: string, what: string): string {
  try {
    refuseSpecialFile(path, what);
    return readFileSync(path, "utf8");
  } catch (error) {
    if (error instanceof InputError) throw error;
    throw new InputError(`${path}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}

/**
 * Refuses what is not a regular file (a FIFO, a device, a socket): reading one blocks the main thread, where
 * Ctrl-C cannot be heard, or never ends (/dev/zero). `run -` reads a pipe as a stream instead.
 */
export function refuseSpecialFile(path: string, what: string): void {
  const stats = statSync(path);
  if (!stats.isFile() && !stats.isDirectory()) throw new InputError(`${path} is not a regular file (a pipe, a device or a socket): give the ${what} as a file, or pipe it to run -`);
}
