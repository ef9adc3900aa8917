import type { Argv } from "yargs";
import { writeReport } from "../report/write-report.js";
import { EXIT } from "./cli-error.js";

export function reportBuilder(yargs: Argv) {
  return yargs.positional("folder", { type: "string", describe: "A complete result folder (run or merge)", demandOption: true });
}

export async function reportHandler(argv: { folder: string }): Promise<number> {
  const page = await writeReport(argv.folder, { onNote: (text) => process.stderr.write(`note: ${text}\n`) });
  process.stderr.write(`Report: ${page} (with report.md and plots/*.svg)\n`);
  return EXIT.ok;
}
