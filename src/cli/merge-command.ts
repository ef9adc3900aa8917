import { EXIT } from "./cli-error.js";
import { recordedLayout } from "../run/table-layout.js";
import { findManifest } from "../runner/manifest.js";
import type { Argv } from "yargs";
import { summaryTable } from "../export/summary-table.js";
import { mergeShards } from "../runner/merge-shards.js";
import { InputError } from "../vocabulary/input-error.js";
import { readInputFile } from "../files/read-input-file.js";
import { UsageError } from "./cli-error.js";
import { PARQUET_ONLY_OPTION, PARQUET_OPTION, tablesFlag, TABLES_OPTION } from "./shared-options.js";
import { closingLine, reportProblems } from "./run-command.js";

export function mergeBuilder(yargs: Argv) {
  return yargs
    .positional("out", { type: "string", describe: "The result folder to write", demandOption: true })
    .positional("shards", { type: "string", array: true, describe: "The shard folders, every shard of one sweep (or --shard-list)" })
    .option("shard-list", {
      type: "string",
      requiresArg: true,
      describe: "A file naming the shard folders, one a line (after any given as arguments): for more shards than a command line holds (merge.sbatch writes one)",
    })
    .option("overwrite", { type: "boolean", describe: "Replace the results already in the output folder", default: false })
    .option("report", { type: "boolean", describe: "Write report.html, report.md and plots/ (--no-report: skip)", default: true })
    .option("tables", { ...TABLES_OPTION, defaultDescription: "the tables the shards kept" })
    .option("parquet", PARQUET_OPTION)
    .option("parquet-only", PARQUET_ONLY_OPTION)
    .option("allow-mixed-versions", { type: "boolean", describe: "Merge shards written by different perceptron-lab versions (refused by default)", default: false })
    .option("quiet", { type: "boolean", describe: "Print only the final table and errors", default: false });
}

export async function mergeHandler(argv: { out: string; shards?: string[]; shardList?: string; overwrite: boolean; allowMixedVersions: boolean; tables?: string; parquet: boolean; parquetOnly: boolean; report: boolean; quiet: boolean }): Promise<number> {
  const tables = tablesFlag(argv.tables, argv.parquetOnly);
  const shards = [...(argv.shards ?? []), ...(argv.shardList === undefined ? [] : readShardList(argv.shardList))];
  if (shards.length === 0) throw new UsageError("merge needs the shard folders: as arguments, or one a line in a file given to --shard-list");
  const report = await mergeShards(argv.out, shards, { overwrite: argv.overwrite, allowMixedVersions: argv.allowMixedVersions, ...(tables === undefined ? {} : { tables }), onNote: (text) => process.stderr.write(`note: ${text}\n`) });
  if (report.outcome === "already-complete") {
    // An interrupted merge's final move, finished: the folder is that merge's, complete and checked.
    if (!argv.quiet) process.stderr.write(`${argv.out} holds the complete merge of these ${shards.length} shards (${report.counts.recorded} runs): nothing left to merge.\n`);
    return report.counts.errors > 0 ? EXIT.failed : EXIT.ok;
  }
  process.stdout.write(summaryTable(report.firstSummaries, report.counts.points, recordedLayout(findManifest(argv.out)).groups));
  if (!argv.quiet) process.stderr.write(`${closingLine(`merged ${shards.length} shards`, report)}\n`);
  if (argv.report) {
    const { writeReport } = await import("../report/write-report.js");
    const page = await writeReport(argv.out, { onNote: (text) => process.stderr.write(`note: ${text}\n`) });
    if (!argv.quiet) process.stderr.write(`Report: ${page}\n`);
  }
  return reportProblems(report);
}

/** The folders a --shard-list file names, one a line as written (a path may hold spaces); blank lines skipped. */
function readShardList(path: string): string[] {
  const text = readInputFile(path, "shard list");
  const folders = text.split(/\r?\n/).filter((line) => line !== "");
  if (folders.length === 0) throw new InputError(`${path}: the shard list names no folder (one a line)`);
  return folders;
}
