/**
 * How an error names the options that would get past it: as flags (`--resume`) when the command line
 * runs, as the library's options (`{ resume: true }`) otherwise. The messages come from the library's
 * functions, which both callers share; the command line says once, as it starts, that it words them.
 */
let commandLine = false;

/** Called by the command line as it starts: messages name flags from then on. */
export function wordOptionsAsFlags(): void {
  commandLine = true;
}

/** The options, worded for the caller: `--resume --force`, or `{ resume: true, force: true }`. */
export function optionsText(...names: readonly string[]): string {
  return commandLine ? names.map((name) => `--${name}`).join(" ") : `{ ${names.map((name) => `${name}: true`).join(", ")} }`;
}

/** One of two wordings: the command line's, or the library's. */
export function commandLineOr(flags: string, library: string): string {
  return commandLine ? flags : library;
}
