import { readFileSync } from "node:fs";
import { UsageError } from "./cli-error.js";

/** The whole of standard input, for `run -`; refused when it is a terminal (the command would wait for typing). */
export function readStandardInput(): string {
  if (process.stdin.isTTY) throw new UsageError("run -: reads the experiment from standard input, which is a terminal here: pipe it in, as in run - < experiment.yaml");
  try {
    return readFileSync(0, "utf8");
  } catch (error) {
    throw new UsageError(`run -: cannot read standard input (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
}
