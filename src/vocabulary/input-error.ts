/**
 * A mistake in what the user gave us (an experiment file, a CSV, a flag): the message is one line that
 * names the place and the broken rule. The CLI prints it as `Error: …` and exits with code 2.
 */
export class InputError extends Error {
  override readonly name = "InputError";
}
