import { mkdtempSync, rmdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import type { Argv } from "yargs";
import { rerunExperiment } from "../runner/rerun-experiment.js";
import { EXIT } from "./cli-error.js";
import { MAX_THREADS } from "./run-command.js";
import { wholeNumberFlag } from "./shared-options.js";

export function rerunBuilder(yargs: Argv) {
  return yargs
    .positional("folder", { type: "string", describe: "A result folder written by run", demandOption: true })
    .option("out", { type: "string", describe: "Where the rerun writes its tables", defaultDescription: "a new temporary folder, removed when the rerun is identical" })
    .option("overwrite", { type: "boolean", describe: "Replace the results --out already holds (an earlier rerun's)", default: false })
    .option("threads", { type: "number", describe: `Worker threads (1 to ${MAX_THREADS}); where they leave cores free, an exporter thread for every three formats their tables`, defaultDescription: "available parallelism" });
}

export async function rerunHandler(argv: { folder: string; out?: string; threads?: number; overwrite: boolean }): Promise<number> {
  const threads = argv.threads === undefined ? undefined : wholeNumberFlag("threads", argv.threads, 1, MAX_THREADS);
  const outDir = argv.out ?? mkdtempSync(join(tmpdir(), "perceptron-lab-rerun-"));
  let report;
  try {
    report = await rerunExperiment(argv.folder, outDir, threads, { overwrite: argv.overwrite });
  } catch (error) {
    // A rerun refused before it wrote anything leaves no empty folder of ours behind.
    if (argv.out === undefined) removeIfEmpty(outDir);
    throw error;
  }
  if (report.toolChanged) {
    const { then, now } = report.toolChanged;
    const describe = (t: typeof then) => `${t.version}${t.git ? ` at ${t.git.commit.slice(0, 12)}${t.git.dirty ? " (dirty)" : ""}` : ""} on Node ${t.node}`;
    process.stderr.write(`note: ${argv.folder} was written by perceptron-lab ${describe(then)}; this is ${describe(now)}\n`);
  }
  if (report.identical) {
    // A temporary folder of ours that reproduced the original holds nothing to look at: removed.
    if (argv.out === undefined) {
      rmSync(outDir, { recursive: true, force: true });
      process.stdout.write(`identical: a rerun reproduces ${argv.folder}/ byte for byte (${report.tables.join(", ")}); its temporary folder was removed (--out keeps a rerun)\n`);
    } else {
      process.stdout.write(`identical: the rerun in ${outDir}/ reproduces ${argv.folder}/ byte for byte (${report.tables.join(", ")})\n`);
    }
    return EXIT.ok;
  }
  for (const { file, line } of report.differences) {
    const where = file.endsWith(".parquet") ? "(binary: its bytes differ)" : line === null ? "(one file is a prefix of the other)" : `from line ${line}`;
    process.stdout.write(`differs: ${file} ${where}\n`);
  }
  process.stdout.write(`the rerun is in ${outDir}/\n`);
  return EXIT.failed;
}

/** Removes a folder if it is empty; one that holds anything (what a failed rerun wrote) stays for the user to see. */
function removeIfEmpty(folder: string): void {
  try {
    rmdirSync(folder);
  } catch {
    // not empty (or already gone): nothing to do
  }
}
