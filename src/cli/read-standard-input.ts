import { UsageError } from "./cli-error.js";

/** The most `run -` reads: an experiment is a few kilobytes; more is the wrong stream (`run - < /dev/zero`). */
export const MAX_STANDARD_INPUT_BYTES = 16 * 2 ** 20;

/**
 * The whole of standard input, for `run -`, read as a stream: a slow producer (`(sleep 2; cat e.json) |`)
 * is waited for, Ctrl-C stops the wait (nothing blocks the main thread), and more than `limit` bytes is
 * refused. Refused too when it is a terminal (the command would wait for typing).
 */
export async function readStandardInput(input: NodeJS.ReadStream = process.stdin, limit = MAX_STANDARD_INPUT_BYTES): Promise<string> {
  if (input.isTTY) throw new UsageError("run -: reads the experiment from standard input, which is a terminal here: pipe it in, as in run - < experiment.yaml");
  const chunks: Buffer[] = [];
  let size = 0;
  try {
    for await (const chunk of input) {
      const bytes = typeof chunk === "string" ? Buffer.from(chunk) : (chunk as Buffer);
      size += bytes.length;
      if (size > limit) {
        input.destroy();
        throw new UsageError(`run -: standard input holds more than ${limit / 2 ** 20} MiB, far more than an experiment: is it the experiment's stream?`);
      }
      chunks.push(bytes);
    }
  } catch (error) {
    if (error instanceof UsageError) throw error;
    throw new UsageError(`run -: cannot read standard input (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  return Buffer.concat(chunks).toString("utf8");
}
