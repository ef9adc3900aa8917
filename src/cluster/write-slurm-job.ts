import type { RunTableName } from "../vocabulary/result-files.js";
import { createHash } from "node:crypto";
import { chmodSync, existsSync } from "node:fs";
import { join, resolve } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { makeFolder } from "../files/checked-fs.js";
import { checkResultFolder, inspectResultFolder } from "../runner/result-folder.js";
import { CLI_BIN, toolVersion } from "../runner/tool-info.js";
import { CLUSTER_FILE, LOGS_FOLDER, SHARDS_FOLDER, type ClusterLayout } from "./cluster-layout.js";
import { slurmScripts, type SlurmScriptOptions } from "./slurm-scripts.js";
import { optionsText } from "../vocabulary/option-words.js";

/** Slurm's default MaxArraySize is 1001: task ids 0 to 1000. */
export const DEFAULT_ARRAY_LIMIT = 1000;
/** How often a shard task requeues itself at its time limit before it gives up (--max-requeues). */
export const DEFAULT_MAX_REQUEUES = 10;

export interface SlurmJobOptions {
  readonly shards: number;
  /** The merged result folder. */
  readonly out: string;
  /** The work folder (scripts, logs/, shards/); default `<out>-slurm`. */
  readonly work?: string;
  readonly cpus?: number;
  readonly time?: string;
  /** Seconds before the time limit at which a task stops and requeues itself (see SlurmScriptOptions). */
  readonly requeueBefore?: number;
  /** How often a task requeues itself at most (see SlurmScriptOptions); default DEFAULT_MAX_REQUEUES. */
  readonly maxRequeues?: number;
  /** The shards' runs are asked with --yes (a sweep past run's unasked limit). */
  readonly yes?: boolean;
  readonly partition?: string;
  readonly memory?: string;
  readonly account?: string;
  readonly maxParallel?: number;
  /** Task ids an array may hold (default DEFAULT_ARRAY_LIMIT); more shards go in further arrays. */
  readonly arrayLimit?: number;
  /** Replace the scripts of a work folder that has them (its shard folders stay). */
  readonly overwrite?: boolean;
  /** The run tables the shards and the merge keep (run and merge --tables); absent: the experiment's. */
  readonly tables?: readonly RunTableName[];
}

export interface SlurmJob {
  readonly work: string;
  readonly layout: ClusterLayout;
  /** The script that submits everything. */
  readonly submit: string;
}

/**
 * Writes a Slurm job for an experiment loaded from a file: shards.sbatch (a job array, a task a shard),
 * merge.sbatch, submit.sh and cluster.json into the work folder (see slurmScripts, ClusterLayout). The
 * jobs run this installation's node and CLI by absolute path, in the current folder.
 */
export function writeSlurmJob(loaded: LoadedExperiment, options: SlurmJobOptions): SlurmJob {
  if (loaded.path === "-") throw new InputError("slurm needs the experiment as a file (the jobs read it), not standard input");
  checkResultFolder(options.out, "--out");
  const out = resolve(options.out);
  const work = resolve(options.work ?? `${options.out}-slurm`);
  checkResultFolder(work, "--work");
  if (work === out) throw new InputError(`--work ${options.work}: must differ from --out (the merged results go there)`);
  if (existsSync(join(work, CLUSTER_FILE)) && !options.overwrite) {
    throw new InputError(`${work} already holds a Slurm job (${CLUSTER_FILE}): ${optionsText("overwrite")} writes its scripts again (the shard folders stay)`);
  }
  // The final merge writes there, and would refuse a folder with results only once every shard has run.
  if (!options.overwrite && inspectResultFolder(out).hasResults) {
    throw new InputError(`${options.out} already holds results: the job's final merge would refuse to write there after every shard ran; choose another --out, or move them away`);
  }
  // What the scripts carry: every path quoted where a shell reads it; what cannot be carried safely, refused.
  const experimentPath = resolve(loaded.path);
  for (const [what, value] of [["the experiment file", experimentPath], ["--out", out], ...loaded.overrides?.map((override) => ["--set", override] as const) ?? []] as const) refuseControl(what, value);
  for (const [what, value] of [
    ["--work", work],
    ["the working folder", process.cwd()],
    ["--partition", options.partition],
    ["--account", options.account],
    ["--time", options.time],
    ["--memory", options.memory],
  ] as const) {
    if (value !== undefined) refuseInDirective(what, value);
  }
  const layout: ClusterLayout = {
    scheduler: "slurm",
    experiment: experimentPath,
    overrides: loaded.overrides ?? [],
    shards: options.shards,
    out,
    shardScript: join(work, "shards.sbatch"),
    mergeScript: join(work, "merge.sbatch"),
    arrayLimit: options.arrayLimit ?? DEFAULT_ARRAY_LIMIT,
    tag: createHash("sha256").update(work).digest("hex").slice(0, 12),
  };
  const scriptOptions: SlurmScriptOptions = {
    layout,
    name: jobName(loaded.experiment.name),
    work,
    cwd: process.cwd(),
    node: process.execPath,
    cli: CLI_BIN,
    version: toolVersion().version,
    cpus: options.cpus ?? 1,
    ...(options.time === undefined ? {} : { time: options.time }),
    ...(options.requeueBefore === undefined ? {} : { requeueBefore: options.requeueBefore, maxRequeues: options.maxRequeues ?? DEFAULT_MAX_REQUEUES }),
    ...(options.yes === true ? { yes: true } : {}),
    ...(options.partition === undefined ? {} : { partition: options.partition }),
    ...(options.memory === undefined ? {} : { memory: options.memory }),
    ...(options.account === undefined ? {} : { account: options.account }),
    ...(options.maxParallel === undefined ? {} : { maxParallel: options.maxParallel }),
    ...(options.tables === undefined ? {} : { tables: options.tables }),
  };
  const scripts = slurmScripts(scriptOptions);
  makeFolder(work);
  makeFolder(join(work, LOGS_FOLDER));
  makeFolder(join(work, SHARDS_FOLDER));
  const submit = join(work, "submit.sh");
  for (const [path, text] of [[layout.shardScript, scripts.shards], [layout.mergeScript, scripts.merge], [submit, scripts.submit]] as const) {
    writeFileAtomic(path, text);
    chmodSync(path, 0o755);
  }
  writeFileAtomic(join(work, CLUSTER_FILE), `${JSON.stringify(layout, null, 2)}\n`);
  return { work, layout, submit };
}

/**
 * Refuses a control character (a newline, a tab, …): a job script's comment or line would end there, and
 * what follows would run as a command.
 */
function refuseControl(what: string, value: string): void {
  // eslint-disable-next-line no-control-regex
  if (/[\u0000-\u001f\u007f]/.test(value)) {
    throw new InputError(`${what} ${JSON.stringify(value)}: holds a control character (a newline?), which a job script cannot carry safely: choose another name`);
  }
}

/**
 * Refuses what a #SBATCH line cannot carry: a value there is split at white space, takes no shell quoting,
 * and in a file name `%` is Slurm's pattern (%j, %A): the working folder, the work folder (its logs) and
 * the resource options must be plain.
 */
function refuseInDirective(what: string, value: string): void {
  refuseControl(what, value);
  const bad = /[\s'"`\\%$]/.exec(value);
  if (bad) {
    throw new InputError(`${what} ${JSON.stringify(value)}: a #SBATCH line cannot carry ${JSON.stringify(bad[0])} (white space, quotes, \\, % and $ are not allowed there): choose a path or value without it`);
  }
}

/** A job name Slurm and a shell take as is. */
function jobName(name: string): string {
  return name.replace(/[^A-Za-z0-9_.-]/g, "-").slice(0, 40) || "perceptron-lab";
}
