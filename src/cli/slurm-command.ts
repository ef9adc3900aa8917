import { execFileSync } from "node:child_process";
import type { Argv } from "yargs";
import { checkShards } from "../cluster/check-shards.js";
import { planSlurmJob } from "../cluster/slurm-dry-run.js";
import { formatSlurmPlan } from "./format-slurm-plan.js";
import { shellWord } from "../cluster/shell-word.js";
import { DEFAULT_ARRAY_LIMIT, DEFAULT_MAX_REQUEUES, writeSlurmJob } from "../cluster/write-slurm-job.js";
import { gridCombinations } from "../generators/grid-points.js";
import { planSweep } from "../sweep/plan-sweep.js";
import { loadExperiment } from "../experiment/load-experiment.js";
import { defaultResultFolder } from "../runner/run-experiment.js";
import { EXIT, UsageError } from "./cli-error.js";
import { experimentPath, MAX_COMBINATIONS_UNASKED, MAX_RUNS_UNASKED, PARQUET_ONLY_OPTION, PARQUET_OPTION, setOverrides, tablesFlag, TABLES_OPTION, wholeNumberFlag } from "./shared-options.js";

export function slurmBuilder(yargs: Argv) {
  return yargs
    .positional("experiment", { type: "string", describe: "Experiment file (JSON or YAML)", demandOption: true })
    .option("shards", { type: "number", describe: "Number of shards: one job array task each", demandOption: true })
    .option("out", { type: "string", describe: "The merged result folder", defaultDescription: "results/<name>" })
    .option("work", { type: "string", describe: "Folder of the job scripts, logs/ and the shard folders (shards/<k>)", defaultDescription: "<out>-slurm" })
    .option("set", { type: "string", array: true, requiresArg: true, describe: "Override a key of the experiment (as run --set); the shards run with it" })
    .option("cpus", { type: "number", describe: "CPUs per shard task (--cpus-per-task; the shard's --threads); refused above the largest node's when sinfo answers", default: 1 })
    .option("time", { type: "string", describe: "Time limit per task (sbatch --time, say 04:00:00)" })
    .option("requeue-before", {
      type: "number",
      describe: "Seconds before a task's time limit (--time, which it needs) at which it stops (its runs in flight written) and requeues itself to resume (sbatch --signal)",
    })
    .option("max-requeues", { type: "number", describe: "With --requeue-before: the most times a task requeues itself; past it the task fails, its folder resumable (check says so)", default: DEFAULT_MAX_REQUEUES })
    .option("yes", { type: "boolean", describe: `Write and run a sweep of more than ${MAX_RUNS_UNASKED.toLocaleString("en")} runs (the tasks run with --yes)`, default: false })
    .option("partition", { type: "string", describe: "Partition (sbatch --partition)" })
    .option("mem", { type: "string", describe: "Memory per task (sbatch --mem, say 4G)" })
    .option("account", { type: "string", describe: "Account to charge (sbatch --account)" })
    .option("max-parallel", { type: "number", describe: "Tasks of the array running at once (the array's %N)" })
    .option("array-limit", { type: "number", describe: "Task ids one job array may hold (the cluster's MaxArraySize − 1); more shards go in further arrays", default: DEFAULT_ARRAY_LIMIT })
    .option("tables", { ...TABLES_OPTION, describe: `${TABLES_OPTION.describe}; the shards and the merge keep these (run and merge --tables)` })
    .option("parquet", PARQUET_OPTION)
    .option("parquet-only", PARQUET_ONLY_OPTION)
    .option("overwrite", { type: "boolean", describe: "Write the scripts again in a work folder that has them (its shard folders stay)", default: false })
    .option("dry-run", { type: "boolean", describe: "Say how the shards split the runs, each shard's CPU and disk, and the merge's; write and submit nothing", default: false });
}

interface SlurmArguments {
  experiment: string;
  shards: number;
  out?: string;
  work?: string;
  set?: unknown; // a list of key=value texts, or an object for --set.key=value (refused)
  cpus: number;
  time?: string;
  requeueBefore?: number;
  maxRequeues: number;
  yes: boolean;
  partition?: string;
  mem?: string;
  account?: string;
  maxParallel?: number;
  arrayLimit: number;
  tables?: string;
  parquet: boolean;
  parquetOnly: boolean;
  overwrite: boolean;
  dryRun: boolean;
}

export function slurmHandler(argv: SlurmArguments): number {
  const shards = wholeNumberFlag("shards", argv.shards, 1, 10_000_000);
  const cpus = wholeNumberFlag("cpus", argv.cpus, 1, 4096);
  const arrayLimit = wholeNumberFlag("array-limit", argv.arrayLimit, 1, 100_000_000);
  const maxParallel = argv.maxParallel === undefined ? undefined : wholeNumberFlag("max-parallel", argv.maxParallel, 1, 100_000_000);
  // Slurm's --signal takes up to 65535 seconds.
  const requeueBefore = argv.requeueBefore === undefined ? undefined : wholeNumberFlag("requeue-before", argv.requeueBefore, 1, 65_535);
  for (const [flag, value] of [["time", argv.time], ["partition", argv.partition], ["mem", argv.mem], ["account", argv.account]] as const) {
    if (value !== undefined && !/^[A-Za-z0-9_.:,+-]+$/.test(value)) throw new UsageError(`--${flag} ${value}: use letters, digits and _ . : , + - only (it goes into an #SBATCH line)`);
  }
  const maxRequeues = wholeNumberFlag("max-requeues", argv.maxRequeues, 0, 1000);
  const tables = tablesFlag(argv.tables, argv.parquetOnly);
  if (requeueBefore !== undefined) {
    // A lead time at or past the limit signals the task as it starts: it would requeue itself forever.
    if (argv.time === undefined) throw new UsageError("--requeue-before needs --time: the lead time is counted back from the task's time limit");
    const limit = slurmTimeSeconds(argv.time);
    if (limit === null) throw new UsageError(`--time ${argv.time}: not a Slurm time (minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS)`);
    if (requeueBefore >= limit) throw new UsageError(`--requeue-before ${requeueBefore}: must be below --time ${argv.time} (${limit} s), or every task would requeue itself as it starts`);
  }
  const largest = largestNodeCpus();
  if (largest !== null && cpus > largest) {
    throw new UsageError(`--cpus ${cpus}: the largest node of this cluster has ${largest} CPUs (sinfo), so the tasks would pend forever`);
  }
  // yargs reads a lone "-" as an empty positional.
  if (argv.experiment === "-" || String(argv.experiment).trim() === "") {
    throw new UsageError("slurm needs the experiment as a file (the shards' jobs read it), not standard input");
  }
  const loaded = loadExperiment(experimentPath(argv.experiment), { overrides: setOverrides(argv.set) });
  // What each task's run would refuse, refused here, before any script is written.
  if (!argv.yes) {
    // A grid too large to walk unasked is counted from its lists (up to), any other exactly.
    const combinations = gridCombinations(loaded.experiment);
    const walked = combinations <= MAX_COMBINATIONS_UNASKED;
    const runs = walked ? planSweep(loaded.experiment).runCount : combinations * loaded.experiment.repeats;
    if (!walked || runs > MAX_RUNS_UNASKED) {
      throw new UsageError(`${argv.experiment}: the sweep has ${walked ? "" : "up to "}${runs.toLocaleString("en")} runs, more than run takes unasked: add --yes if you mean it (the tasks run with --yes)`);
    }
  }
  if (argv.dryRun) {
    const out = argv.out ?? defaultResultFolder(loaded.experiment);
    const plan = planSlurmJob(loaded, shards, tables);
    process.stdout.write(formatSlurmPlan(plan, out, argv.work ?? `${out}-slurm`));
    return EXIT.ok;
  }
  const job = writeSlurmJob(loaded, {
    shards,
    out: argv.out ?? defaultResultFolder(loaded.experiment),
    ...(argv.work === undefined ? {} : { work: argv.work }),
    cpus,
    ...(argv.time === undefined ? {} : { time: argv.time }),
    ...(requeueBefore === undefined ? {} : { requeueBefore, maxRequeues }),
    ...(argv.yes ? { yes: true } : {}),
    ...(argv.partition === undefined ? {} : { partition: argv.partition }),
    ...(argv.mem === undefined ? {} : { memory: argv.mem }),
    ...(argv.account === undefined ? {} : { account: argv.account }),
    ...(maxParallel === undefined ? {} : { maxParallel }),
    arrayLimit,
    ...(tables === undefined ? {} : { tables }),
    overwrite: argv.overwrite,
  });
  process.stdout.write(
    [
      `Wrote a Slurm job of ${shards} shards in ${job.work}: shards.sbatch, merge.sbatch, submit.sh, cluster.json.`,
      `Submit:       bash ${shellWord(job.submit)}`,
      `Watch:        perceptron-lab check ${shellWord(job.work)}`,
      `Rerun shard K: sbatch --array=K ${shellWord(job.layout.shardScript)}${shards > arrayLimit ? " (K up to " + arrayLimit + "; check prints the command for any shard)" : ""}`,
      `Merged into:  ${job.layout.out}`,
      "",
    ].join("\n"),
  );
  return EXIT.ok;
}

/** The most CPUs of any node, as sinfo tells it; null where there is no sinfo or no answer. */
function largestNodeCpus(): number | null {
  try {
    const text = execFileSync("sinfo", ["--noheader", "--format=%c"], { encoding: "utf8", stdio: ["ignore", "pipe", "ignore"], timeout: 10_000 });
    const cpus = text.split("\n").map((line) => Number.parseInt(line, 10)).filter((value) => Number.isInteger(value) && value > 0);
    return cpus.length === 0 ? null : Math.max(...cpus);
  } catch {
    return null;
  }
}

export function checkBuilder(yargs: Argv) {
  return yargs.positional("work", { type: "string", describe: "A work folder written by perceptron-lab slurm", demandOption: true });
}

/** Prints the shards that are not complete and how to run them again; exit 0 only when all are complete. */
export function checkHandler(argv: { work: string }): number {
  const check = checkShards(argv.work);
  const pending = check.shards.filter((shard) => shard.state !== "complete");
  for (const shard of pending) process.stdout.write(`shard ${shard.index}/${check.layout.shards}: ${shard.state} (${shard.detail})\n`);
  const count = (state: string) => check.shards.filter((shard) => shard.state === state).length;
  const complete = count("complete");
  const others = (["running", "queued", "stopped", "missing", "foreign"] as const).filter((state) => count(state) > 0).map((state) => `${count(state)} ${state}`);
  process.stdout.write(`${complete} of ${check.layout.shards} shards complete${others.length === 0 ? "" : `; ${others.join(", ")}`}\n`);
  if (!check.queueKnown) process.stdout.write("(squeue did not answer: a task still waiting in Slurm's queue reads as missing)\n");
  if (check.rerun.length > 0) process.stdout.write(`Run again:\n${check.rerun.map((command) => `  ${command}\n`).join("")}`);
  if (count("foreign") > 0) process.stdout.write("A foreign shard folder holds other results: move it away, then run that shard again.\n");
  if (check.complete) process.stdout.write(`Merge: ${check.merge}\n`);
  else if (check.rerun.length > 0) {
    // Not at once: the merge job checks every shard first, and fails while a rerun is still going.
    const ids = check.rerun.length === 1 ? "<the job id it prints>" : "<the job ids they print, joined by :>";
    process.stdout.write(`Then merge once they have ended, not before: sbatch --dependency=afterany:${ids} ${shellWord(check.layout.mergeScript)}\n`);
  } else if (count("running") + count("queued") === 0) process.stdout.write(`Then merge: ${check.merge}\n`);
  else process.stdout.write(`Merge once the running and queued shards end: sbatch --dependency=afterany:<their job ids> ${shellWord(check.layout.mergeScript)}\n`);
  return check.complete ? EXIT.ok : EXIT.failed;
}

/**
 * A Slurm time (sbatch --time) in seconds: minutes, MM:SS, HH:MM:SS, D-HH, D-HH:MM or D-HH:MM:SS; null for
 * anything else (UNLIMITED included: no limit to count back from).
 */
export function slurmTimeSeconds(text: string): number | null {
  const days = /^(\d+)-(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text);
  if (days) return ((Number(days[1]) * 24 + Number(days[2])) * 60 + Number(days[3] ?? 0)) * 60 + Number(days[4] ?? 0);
  const parts = /^(\d+)(?::(\d+))?(?::(\d+))?$/.exec(text);
  if (!parts) return null;
  if (parts[3] !== undefined) return (Number(parts[1]) * 60 + Number(parts[2])) * 60 + Number(parts[3]);
  if (parts[2] !== undefined) return Number(parts[1]) * 60 + Number(parts[2]);
  return Number(parts[1]) * 60;
}
