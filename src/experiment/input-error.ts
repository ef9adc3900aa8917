import { readFileSync } from "node:fs";

/**
 * A mistake in what the user gave us (an experiment file, a CSV, a flag): the message is one line that
 * names the place and the broken rule. The CLI prints it as `Error: …` and exits with code 2.
 */
export class InputError extends Error {
  override readonly name = "InputError";
}

/** A user's file as text, or an InputError naming it and why it cannot be read (`ENOENT`, `EACCES`, …). */
export function readInputFile(path: string, what: string): string {
  try {
    return readFileSync(path, "utf8");
  } catch (error) {
    throw new InputError(`${path}: cannot read the ${what} (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
