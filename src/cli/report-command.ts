import type { Argv } from "yargs";
import { writeReport } from "../report/write-report.js";
import { EXIT } from "./cli-error.js";

export function reportBuilder(yargs: Argv) {
  return yargs.positional("folder", { type: "string", describe: "A complete result folder (run or merge)", demandOption: true }).option("figures", {
    type: "string",
    choices: ["screen", "paper"],
    default: "screen",
    describe: "paper: each plot also as a journal's figure at 3.5 in and 7 in wide (plots/<name>.<width>.pdf, vector with fonts embedded; .300dpi.png; .vl.json)",
  });
}

export async function reportHandler(argv: { folder: string; figures?: string }): Promise<number> {
  const figures = argv.figures === "paper" ? "paper" : "screen";
  const page = await writeReport(argv.folder, { onNote: (text) => process.stderr.write(`note: ${text}\n`), figures });
  process.stderr.write(`Report: ${page} (with report.md and plots/*.svg${figures === "paper" ? ", and the paper figures plots/*.3.5in.pdf, *.7in.pdf and their PNGs" : ""})\n`);
  return EXIT.ok;
}
