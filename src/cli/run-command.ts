import { availableParallelism } from "node:os";
import type { Argv } from "yargs";
import { loadExperiment } from "../experiment/load-experiment.js";
import { summaryTable } from "../export/summary-table.js";
import type { RunRow } from "../run/run-types.js";
import { runExperiment, type RunReport } from "../runner/run-experiment.js";
import { EXIT } from "./cli-error.js";
import { DEFAULT_EXPERIMENT, defaultExperimentPath, wholeNumberFlag } from "./shared-options.js";

export const MAX_THREADS = 256;

export function runBuilder(yargs: Argv) {
  return yargs
    .positional("experiment", {
      type: "string",
      describe: `Experiment file (JSON); see experiments/schema.json`,
      default: DEFAULT_EXPERIMENT,
    })
    .option("threads", {
      type: "number",
      describe: `Worker threads (1 to ${MAX_THREADS})`,
      default: availableParallelism(),
      defaultDescription: `available parallelism, ${availableParallelism()} here`,
    })
    .option("out", { type: "string", describe: "Result folder", defaultDescription: "results/<name>" })
    .option("quiet", { type: "boolean", describe: "Print only the final table and errors", default: false });
}

export async function runHandler(argv: { experiment?: string; threads: number; out?: string; quiet: boolean }): Promise<number> {
  const threads = wholeNumberFlag("threads", argv.threads, 1, MAX_THREADS);
  const path = argv.experiment === undefined || argv.experiment === DEFAULT_EXPERIMENT ? defaultExperimentPath() : argv.experiment;
  const loaded = loadExperiment(path);
  const info = (text: string) => {
    if (!argv.quiet) process.stderr.write(`${text}\n`);
  };
  const { experiment } = loaded;
  const report = await runExperiment(loaded, {
    threads,
    ...(argv.out === undefined ? {} : { outDir: argv.out }),
    argv: process.argv.slice(2),
    onProgress: progressPrinter(info),
  });
  for (const entry of report.skipped) {
    info(`skipped ${entry.points} grid point${entry.points > 1 ? "s" : ""} of grid ${entry.grid}: ${entry.reason}`);
  }
  process.stdout.write(summaryTable(report.firstSummaries, report.counts.points));
  info(closingLine(experiment.name, report));
  return reportProblems(report);
}

function progressPrinter(info: (text: string) => void): (done: number, total: number) => void {
  let last = Date.now();
  return (done, total) => {
    const now = Date.now();
    if (now - last >= 2000 && done < total) {
      last = now;
      info(`${done}/${total} runs`);
    }
  };
}

function closingLine(name: string, report: RunReport): string {
  const c = report.counts;
  return (
    `${name}: ${c.runs} runs on ${report.threads} thread${report.threads > 1 ? "s" : ""} in ${report.wallSeconds.toFixed(1)} s: ` +
    `${c.converged} converged, ${c.notConverged} not converged, ${c.errors} error${c.errors === 1 ? "" : "s"}, ` +
    `${c.violatingRuns} violation${c.violatingRuns === 1 ? "" : "s"}. Results in ${report.outDir}/`
  );
}

/** Errors and violations make the command fail (exit 1), after every table has been written. */
function reportProblems(report: RunReport): number {
  const c = report.counts;
  if (c.violatingRuns > 0) {
    const runs = report.firstViolations.slice(0, 5).map(describeRun).join("; ");
    process.stderr.write(`Error: ${c.violatingRuns} run${c.violatingRuns > 1 ? "s" : ""} exceeded a bound or missed an exact count, which is a bug: ${runs}\n`);
    process.stderr.write(`Their data sets are in ${report.outDir}/violations/; replay the first with:\n  ${report.violationData[0]!.replay}\n`);
  }
  if (c.errors > 0) {
    const runs = report.firstErrors.map((row) => `${describeRun(row)}: ${row.error}`).join("; ");
    process.stderr.write(`Error: ${c.errors} run${c.errors > 1 ? "s" : ""} failed: ${runs}\n`);
  }
  return c.violatingRuns > 0 || c.errors > 0 ? EXIT.failed : EXIT.ok;
}

export function describeRun(row: RunRow): string {
  const shape = row.generator === "planted" ? ` margin=${row.margin} radius=${row.radius} offset=${row.offset}` : row.c === null ? "" : ` c=${row.c}`;
  return `run ${row.run} (seed ${row.seed}, ${row.generator} n=${row.n} d=${row.d}${shape} bias=${row.bias} eta=${row.eta} init=${row.init} order=${row.order})`;
}
