import { layoutGroups, pluginBoundNames } from "../run/table-layout.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { availableParallelism } from "node:os";
import type { Argv } from "yargs";
import { InputError } from "../vocabulary/input-error.js";
import { findGenerator } from "../generators/generator-registry.js";
import { experimentFromText, loadExperiment } from "../experiment/load-experiment.js";
import { describePlan } from "../sweep/describe-plan.js";
import { formatPlan, identicalRepeatsNote } from "./format-plan.js";
import { readStandardInput } from "./read-standard-input.js";
import { shellWord } from "../cluster/shell-word.js";
import { WriteError } from "../files/write-error.js";
import { summaryTable } from "../export/summary-table.js";
import type { RunRow } from "../run/run-types.js";
import { MAX_TIMEOUT_MS } from "../pool/run-pool.js";
import { testFaultsFromEnvironment } from "../pool/test-faults.js";
import { SweepTimer } from "../runner/calibrate-sweep.js";
import { defaultResultFolder, MAX_POOL_THREADS, runExperiment, type RunReport } from "../runner/run-experiment.js";
import { gridCombinations } from "../generators/grid-points.js";
import { identicalRepeatPoints, planSweep } from "../sweep/plan-sweep.js";
import { EXIT, UsageError } from "./cli-error.js";
import { createProgress, isInteractive } from "./progress.js";
import { DEFAULT_EXPERIMENT, experimentPath, MAX_COMBINATIONS_UNASKED, MAX_RUNS_UNASKED, PARQUET_ONLY_OPTION, PARQUET_OPTION, parseShard, positiveNumberFlag, setOverrides, tablesFlag, TABLES_OPTION, wholeNumberFlag } from "./shared-options.js";
import { DEFAULT_RUN_TABLES } from "../vocabulary/result-files.js";

export const MAX_THREADS = MAX_POOL_THREADS;
export const DEFAULT_WORKER_MEMORY_MB = 4096;

export function runBuilder(yargs: Argv) {
  return yargs
    .positional("experiment", {
      type: "string",
      describe: `Experiment file (JSON, or YAML for .yaml/.yml; see experiments/schema.json), or - to read it from standard input`,
      default: DEFAULT_EXPERIMENT,
    })
    .option("set", {
      type: "string",
      array: true,
      requiresArg: true,
      describe: "Override a key of the experiment, as Hydra does: --set grid.margin=0.01,0.02 --set repeats=50 (grid[1].n for the second of several grids; null removes a key); validated like the file and recorded in the manifest",
    })
    .option("dry-run", {
      type: "boolean",
      describe: "Print the plan (grid points, runs, skipped points, estimated work, time and disk) and write nothing; the time comes from a few of its runs timed in memory (about a second)",
      default: false,
    })
    .option("threads", {
      type: "number",
      describe: `Worker threads (1 to ${MAX_THREADS}); where they leave cores free, an exporter thread for every three formats their tables`,
      default: availableParallelism(),
      defaultDescription: `available parallelism, ${availableParallelism()} here`,
    })
    .option("out", { type: "string", describe: "Result folder", defaultDescription: "results/<name>" })
    .option("resume", { type: "boolean", describe: "Continue the runs recorded in the result folder", default: false })
    .option("force", { type: "boolean", describe: "With --resume: accept a changed experiment file, reusing the runs that still match", default: false })
    .option("retry-errors", { type: "boolean", describe: "With --resume: run again the runs recorded as errors", default: false })
    .option("overwrite", { type: "boolean", describe: "Replace the results already in the result folder", default: false })
    .option("run-timeout", {
      type: "number",
      describe: "Seconds a batch of runs may take before its runs are retried one by one, and a run that still overruns becomes an error row (0.001 to 2147483.647; whole milliseconds, rounded up)",
      defaultDescription: "none",
    })
    .option("worker-memory", {
      type: "number",
      describe: "Memory limit of each worker thread, in MB: its heap, and (estimated before they are made) a run's data arrays; a run that exceeds it becomes an error row",
      default: DEFAULT_WORKER_MEMORY_MB,
    })
    .option("shard", { type: "string", describe: "Run shard i/n of the sweep (from 1; balanced by expected cost), or auto from a Slurm array or auto/<n> from a Kubernetes Indexed Job; join the shards with merge", defaultDescription: "the whole sweep" })
    .option("tables", TABLES_OPTION)
    .option("parquet", PARQUET_OPTION)
    .option("parquet-only", PARQUET_ONLY_OPTION)
    .option("yes", { type: "boolean", describe: `Run a sweep of more than ${MAX_RUNS_UNASKED.toLocaleString("en")} runs, or plan one (run or --dry-run) whose grids hold more than ${MAX_COMBINATIONS_UNASKED.toLocaleString("en")} combinations`, default: false })
    .option("report", { type: "boolean", describe: "Write report.html, report.md and plots/ at the end (--no-report: skip)", default: true })
    .option("quiet", { type: "boolean", describe: "Print only the final table and errors (no progress)", default: false });
}

interface RunArguments {
  experiment?: string;
  set?: unknown; // a list of key=value texts, or an object for --set.key=value (refused)
  dryRun: boolean;
  threads: number;
  out?: string;
  resume: boolean;
  force: boolean;
  retryErrors: boolean;
  overwrite: boolean;
  runTimeout?: number;
  workerMemory: number;
  shard?: string;
  tables?: string;
  parquet: boolean;
  parquetOnly: boolean;
  report: boolean;
  yes: boolean;
  quiet: boolean;
}

export async function runHandler(argv: RunArguments): Promise<number> {
  const threads = wholeNumberFlag("threads", argv.threads, 1, MAX_THREADS);
  const workerMemoryMb = wholeNumberFlag("worker-memory", argv.workerMemory, 64, 1 << 20);
  const runTimeoutSeconds = argv.runTimeout === undefined ? undefined : runTimeoutFlag(argv.runTimeout);
  if (argv.resume && argv.overwrite) throw new UsageError("--resume and --overwrite: choose one (continue the results, or replace them)");
  if ((argv.force || argv.retryErrors) && !argv.resume) throw new UsageError(`--${argv.force ? "force" : "retry-errors"} goes with --resume`);
  const shard = argv.shard === undefined ? undefined : parseShard(argv.shard);
  const tables = tablesFlag(argv.tables, argv.parquetOnly);
  const overrides = setOverrides(argv.set);
  const given = argv.experiment ?? DEFAULT_EXPERIMENT;
  const path = given === "-" ? "-" : experimentPath(given);
  const loaded = path === "-" ? experimentFromText(await readStandardInput(), "-", { overrides }) : loadExperiment(path, { overrides });
  const { experiment } = loaded;
  // Planning walks every combination of the grids (~1 s a million here, deaf to nothing now but long): a
  // grid past a million combinations is planned only when asked, before the walk, for a run and a dry run alike.
  const combinations = gridCombinations(experiment);
  if (combinations > MAX_COMBINATIONS_UNASKED && !argv.yes) {
    throw new UsageError(
      `${path}: the grids hold ${combinations.toLocaleString("en")} combinations (up to ${(combinations * experiment.repeats).toLocaleString("en")} runs), more than ${MAX_COMBINATIONS_UNASKED.toLocaleString("en")}: planning walks each one (about a second a million); add --yes if you mean it`,
    );
  }
  const plan = planSweep(experiment);
  if (argv.dryRun) {
    const timer = new SweepTimer(plan.settings, plan.pointCount, { dataSets: loaded.dataSets });
    const described = describePlan(experiment, shard ?? null, (point, runs) => timer.add(point, runs));
    process.stdout.write(formatPlan(described, path, argv.out ?? defaultResultFolder(experiment), { calibration: timer.result(), threads }, tables ?? experiment.tables ?? DEFAULT_RUN_TABLES));
    return EXIT.ok;
  }
  const runs = plan.runCount;
  if (runs > MAX_RUNS_UNASKED && !argv.yes) {
    throw new UsageError(`${path}: the sweep has ${runs.toLocaleString("en")} runs, more than ${MAX_RUNS_UNASKED.toLocaleString("en")}: add --yes if you mean it`);
  }
  const info = (text: string) => {
    if (!argv.quiet) process.stderr.write(`${text}\n`);
  };
  const identical = identicalRepeatPoints(plan);
  if (identical > 0) info(identicalRepeatsNote(identical, plan.repeats));
  const testFaults = testFaultsFromEnvironment();
  const interruption = interruptOnSignals(info);
  const progress = createProgress({ quiet: argv.quiet, interactive: isInteractive() });
  const shardFlag = shard === undefined ? "" : ` --shard ${shard.index}/${shard.count}`;
  const setFlags = overrides.map((override) => ` --set ${shellWord(override)}`).join("");
  const resumeCommand = `perceptron-lab run ${path === "-" ? "- < <the same experiment>" : shellWord(path)}${setFlags} --out ${argv.out ?? defaultResultFolder(experiment)}${shardFlag} --resume`;
  let report: RunReport;
  try {
    report = await runExperiment(loaded, {
      threads,
      ...(argv.out === undefined ? {} : { outDir: argv.out }),
      resume: argv.resume,
      force: argv.force,
      retryErrors: argv.retryErrors,
      overwrite: argv.overwrite,
      workerMemoryMb,
      ...(runTimeoutSeconds === undefined ? {} : { runTimeoutSeconds }),
      signal: interruption.signal,
      ...(shard === undefined ? {} : { shard }),
      ...(tables === undefined ? {} : { tables }),
      argv: process.argv.slice(2),
      onProgress: (done, total) => progress.update(done, total),
      onNote: (text) => process.stderr.write(`note: ${text}\n`),
      ...(testFaults === undefined ? {} : { faults: testFaults }),
    });
  } catch (error) {
    // What was written before a failed write is whole: say how to go on once the cause is fixed. Where the
    // folder holds no manifest (the lock or the first write failed, or the folder was removed meanwhile),
    // nothing of the sweep is there to resume.
    if (error instanceof WriteError) {
      const written = existsSync(join(argv.out ?? defaultResultFolder(experiment), "manifest.json"));
      throw error.withHint(written ? `What was written is kept: once this is fixed, ${resumeCommand}` : "Nothing of this sweep is on disk: once this is fixed, run the same command again");
    }
    throw error;
  } finally {
    progress.stop();
    interruption.release();
  }
  if (report.outcome === "already-complete") {
    const errors = report.counts.errors;
    info(`${report.outDir} is complete (${report.counts.recorded} runs): nothing to resume.${errors > 0 ? ` ${errors} runs are errors: --retry-errors runs them again.` : ""}`);
    return errors > 0 ? EXIT.failed : EXIT.ok;
  }
  for (const entry of report.skipped) {
    info(`skipped ${entry.points} grid point${entry.points > 1 ? "s" : ""} of grid ${entry.grid}: ${entry.reason}`);
  }
  if (report.outcome === "interrupted") {
    process.stderr.write(`Interrupted: ${report.counts.recorded} of ${report.counts.runs} runs written to ${report.outDir}/. Resume with:\n  ${resumeCommand}\n`);
    return EXIT.interrupted;
  }
  if (shard === undefined) process.stdout.write(summaryTable(report.firstSummaries, report.counts.points, layoutGroups(pluginBoundNames(experiment.plugins), experiment.bounds)));
  info(closingLine(shard === undefined ? experiment.name : `${experiment.name} shard ${shard.index}/${shard.count}`, report));
  if (shard === undefined && argv.report) await reportStep(report.outDir, info);
  if (shard !== undefined) info(`Join the ${shard.count} shards with: perceptron-lab merge <out> <shard folders...>`);
  return reportProblems(report);
}

/** --run-timeout: seconds from 0.001 to the longest a timer can wait (~24.8 days); armed in whole milliseconds, rounded up. */
function runTimeoutFlag(value: unknown): number {
  const seconds = positiveNumberFlag("run-timeout", value);
  if (seconds < 0.001 || seconds > MAX_TIMEOUT_MS / 1000) {
    throw new UsageError(`--run-timeout ${String(value)}: must be from 0.001 to ${MAX_TIMEOUT_MS / 1000} seconds (the longest a timer can wait, about 24.8 days)`);
  }
  return seconds;
}

/**
 * The first SIGINT or SIGTERM stops handing out work (the runs in flight finish and are written); a
 * second one exits at once. Either way only whole lines were ever written, so the folder resumes.
 */
function interruptOnSignals(info: (text: string) => void): { signal: AbortSignal; release: () => void } {
  const controller = new AbortController();
  const onSignal = () => {
    if (controller.signal.aborted) {
      process.stderr.write("Interrupted twice: quitting now. --resume continues from the runs written.\n");
      process.exit(EXIT.interrupted);
    }
    controller.abort();
    info("Interrupted: finishing the runs in flight (interrupt again to quit at once)...");
  };
  process.on("SIGINT", onSignal);
  process.on("SIGTERM", onSignal);
  return {
    signal: controller.signal,
    // After a first signal the handlers stay until the process ends: a second one that comes once the sweep
    // has stopped (while the message is written, or late on a loaded machine) still quits with its message
    // and exit code 130, not by Node's default action.
    release: () => {
      if (controller.signal.aborted) return;
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    },
  };
}

/**
 * The report after complete tables: a failure to draw it (a plotting library's fault, a full disk) is said
 * as a warning with the command that tries again, and does not turn a finished sweep into a failed one (its
 * exit code stays the sweep's). A refusal the user caused (an input error: a linked plots/) stays an error.
 */
async function reportStep(outDir: string, info: (text: string) => void): Promise<void> {
  try {
    // Loaded when a report is written: its plots and pages are ~180 ms of modules a shard (--no-report) never needs.
    const { writeReport } = await import("../report/write-report.js");
    info(`Report: ${await writeReport(outDir)}`);
  } catch (error) {
    if (error instanceof InputError) throw error;
    const message = error instanceof Error ? error.message : String(error);
    process.stderr.write(`Warning: the report could not be written (${message.split("\n")[0]}); the tables in ${outDir}/ are complete. Try again with: perceptron-lab report ${shellWord(outDir)}\n`);
  }
}

export function closingLine(name: string, report: RunReport): string {
  const c = report.counts;
  const reused = c.reused > 0 ? ` (${c.reused} reused from before)` : "";
  return (
    // A merge runs nothing (threads 0): it says how long it took only.
    `${name}: ${c.runs} runs${reused}${report.threads > 0 ? ` on ${report.threads} thread${report.threads > 1 ? "s" : ""}` : ""} in ${report.wallSeconds.toFixed(1)} s: ` +
    `${c.converged} converged, ${c.notConverged} not converged, ${c.errors} error${c.errors === 1 ? "" : "s"}, ` +
    `${c.violatingRuns} violation${c.violatingRuns === 1 ? "" : "s"}. Results in ${report.outDir}/`
  );
}

/** Errors and violations make the command fail (exit 1), after every table has been written. */
export function reportProblems(report: RunReport): number {
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
  // The generator's own keys (margin, radius, …; c; the data file), those with a value.
  const shape = (findGenerator(row.generator)?.keys ?? [])
    .filter((key) => row[key] !== null)
    .map((key) => ` ${key}=${row[key]}`)
    .join("");
  return `run ${row.run} (seed ${row.seed}, ${row.generator} n=${row.n} d=${row.d}${shape} bias=${row.bias} eta=${row.eta} init=${row.init} order=${row.order})`;
}
