import type { Argv } from "yargs";
import { summaryTable } from "../export/summary-table.js";
import { writeReport } from "../report/write-report.js";
import { mergeShards } from "../runner/merge-shards.js";
import { closingLine, reportProblems } from "./run-command.js";

export function mergeBuilder(yargs: Argv) {
  return yargs
    .positional("out", { type: "string", describe: "The result folder to write", demandOption: true })
    .positional("shards", { type: "string", array: true, describe: "The shard folders, every shard of one sweep", demandOption: true })
    .option("overwrite", { type: "boolean", describe: "Replace the results already in the output folder", default: false })
    .option("report", { type: "boolean", describe: "Write report.html, report.md and plots/ (--no-report: skip)", default: true })
    .option("parquet", { type: "boolean", describe: "Also write runs.parquet: the runs table, typed and columnar (pandas, polars, R's arrow)", default: false })
    .option("parquet-only", { type: "boolean", describe: "Write the runs as runs.parquet only: no runs.jsonl, no runs.csv", default: false })
    .option("allow-mixed-versions", { type: "boolean", describe: "Merge shards written by different perceptron-lab versions (refused by default)", default: false })
    .option("quiet", { type: "boolean", describe: "Print only the final table and errors", default: false });
}

export async function mergeHandler(argv: { out: string; shards: string[]; overwrite: boolean; allowMixedVersions: boolean; parquet: boolean; parquetOnly: boolean; report: boolean; quiet: boolean }): Promise<number> {
  const report = await mergeShards(argv.out, argv.shards, { overwrite: argv.overwrite, allowMixedVersions: argv.allowMixedVersions, parquet: argv.parquet, parquetOnly: argv.parquetOnly, onNote: (text) => process.stderr.write(`note: ${text}\n`) });
  process.stdout.write(summaryTable(report.firstSummaries, report.counts.points));
  if (!argv.quiet) process.stderr.write(`${closingLine(`merged ${argv.shards.length} shards`, report)}\n`);
  if (argv.report) {
    const page = await writeReport(argv.out, { onNote: (text) => process.stderr.write(`note: ${text}\n`) });
    if (!argv.quiet) process.stderr.write(`Report: ${page}\n`);
  }
  return reportProblems(report);
}
