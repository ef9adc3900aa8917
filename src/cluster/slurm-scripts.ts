import type { RunTableName } from "../vocabulary/result-files.js";
import { join } from "node:path";
import { shellWord } from "./shell-word.js";
import { type ClusterLayout, LOGS_FOLDER, MERGE_LIST, queueComment, SHARDS_FOLDER } from "./cluster-layout.js";

/** What the Slurm scripts are made of; every path absolute (the compute nodes see the submit host's files). */
export interface SlurmScriptOptions {
  readonly layout: ClusterLayout;
  /** The experiment's name (the jobs' names). */
  readonly name: string;
  /** The work folder: scripts, logs/, shards/. */
  readonly work: string;
  /** The folder the jobs run in (relative paths of the experiment's data files resolve from it). */
  readonly cwd: string;
  /** The node binary and the command line's bundle (CLI_BIN) the jobs run. */
  readonly node: string;
  readonly cli: string;
  readonly version: string;
  /** CPUs a shard task asks for (its --threads). */
  readonly cpus: number;
  readonly time?: string;
  /**
   * Seconds before the time limit (--time, or the partition's) at which Slurm signals a shard task
   * (`--signal=B:USR1@S`): the task stops its run as Ctrl-C does (the runs in flight finish and are
   * written, the folder left resumable) and requeues itself (`scontrol requeue`), to resume where it stopped.
   */
  readonly requeueBefore?: number;
  /**
   * With requeueBefore: the most times a task requeues itself (Slurm's SLURM_RESTART_COUNT counts them); past it
   * the task stops, says so in its log (which `check` quotes) and fails, its folder resumable.
   */
  readonly maxRequeues?: number;
  /** The shards' runs take --yes (a sweep past run's unasked limit: planned without asking). */
  readonly yes?: boolean;
  readonly partition?: string;
  readonly memory?: string;
  readonly account?: string;
  /** At most this many tasks of an array run at once (Slurm's `%`). */
  readonly maxParallel?: number;
  /** The run tables the shards and the merge keep (run and merge --tables); absent: the experiment's. */
  readonly tables?: readonly RunTableName[];
}

export interface SlurmScripts {
  readonly shards: string;
  readonly merge: string;
  readonly submit: string;
}

/** The arrays that cover shards 1..N: each holds task ids 1..size, shard = task id + offset. */
export function slurmArrays(layout: Pick<ClusterLayout, "shards" | "arrayLimit">): { offset: number; size: number }[] {
  const arrays: { offset: number; size: number }[] = [];
  for (let offset = 0; offset < layout.shards; offset += layout.arrayLimit) arrays.push({ offset, size: Math.min(layout.arrayLimit, layout.shards - offset) });
  return arrays;
}

/**
 * The command that runs shards again (given by index) as tasks of the shards' script: `sbatch --array=K
 * shards.sbatch` for shard K (a shard beyond the first array's task ids goes with its SHARD_OFFSET).
 */
export function slurmRerunCommands(layout: ClusterLayout, shards: readonly number[]): string[] {
  const byOffset = new Map<number, number[]>();
  for (const shard of [...shards].sort((a, b) => a - b)) {
    const offset = Math.floor((shard - 1) / layout.arrayLimit) * layout.arrayLimit;
    byOffset.set(offset, [...(byOffset.get(offset) ?? []), shard - offset]);
  }
  return [...byOffset].map(([offset, tasks]) => {
    const exported = offset === 0 ? "" : ` --export=ALL,SHARD_OFFSET=${offset} --comment=${queueComment(layout, offset)}`;
    return `sbatch --array=${taskList(tasks)}${exported} ${shellWord(layout.shardScript)}`;
  });
}

/** Task ids as Slurm's --array takes them: 1-3,7,9-10. */
function taskList(tasks: readonly number[]): string {
  const sorted = [...tasks].sort((a, b) => a - b);
  const parts: string[] = [];
  for (let k = 0; k < sorted.length; ) {
    let end = k;
    while (end + 1 < sorted.length && sorted[end + 1] === sorted[end]! + 1) end++;
    parts.push(end === k ? `${sorted[k]}` : `${sorted[k]}-${sorted[end]}`);
    k = end + 1;
  }
  return parts.join(",");
}

/**
 * A Slurm job array of the experiment's shards and a merge job after it. The shard count is baked into
 * the shards' script and the shard is the array task id (plus SHARD_OFFSET beyond the first array), so
 * `sbatch --array=K shards.sbatch` runs shard K again, and any set of task ids (stepped, or a list) runs
 * exactly those shards. Each task `exec`s node itself (scancel's signal reaches it; it stops handing out
 * runs and writes what it has) and resumes its folder, so a requeued or rerun task continues. The merge
 * job starts when every task has ended (`afterany`, so that a failed task does not leave it waiting
 * forever), runs `check` and refuses, listing the shards to rerun with their commands, unless every
 * shard is complete.
 */
export function slurmScripts(options: SlurmScriptOptions): SlurmScripts {
  const { layout, work } = options;
  const logs = join(work, LOGS_FOLDER);
  const run = [options.node, options.cli].map(shellWord).join(" ");
  const header = (what: string) => [
    "#!/bin/bash",
    `# ${what}`,
    `# Written by perceptron-lab ${options.version} (perceptron-lab slurm) for ${options.name}: ${layout.shards} shards of ${layout.experiment}.`,
  ];
  const resources = [
    ...(options.partition === undefined ? [] : [`#SBATCH --partition=${options.partition}`]),
    ...(options.account === undefined ? [] : [`#SBATCH --account=${options.account}`]),
    ...(options.time === undefined ? [] : [`#SBATCH --time=${options.time}`]),
    ...(options.memory === undefined ? [] : [`#SBATCH --mem=${options.memory}`]),
  ];
  const first = slurmArrays(layout)[0]!;
  const sets = layout.overrides.map((override) => ` --set ${shellWord(override)}`).join("");
  const shards = [
    ...header(`Shard K of ${layout.shards}, K = the array task id (+ SHARD_OFFSET): sbatch --array=K ${layout.shardScript} runs shard K again.`),
    `#SBATCH --job-name=${options.name}-shards`,
    `#SBATCH --array=1-${first.size}${options.maxParallel === undefined ? "" : `%${options.maxParallel}`}`,
    `#SBATCH --cpus-per-task=${options.cpus}`,
    `#SBATCH --ntasks=1`,
    ...resources,
    `#SBATCH --comment=${queueComment(layout, 0)}`,
    `#SBATCH --chdir=${options.cwd}`,
    `#SBATCH --output=${join(logs, "slurm-%A_%a.out")}`,
    "#SBATCH --open-mode=append",
    "#SBATCH --requeue",
    ...(options.requeueBefore === undefined ? [] : [`#SBATCH --signal=B:USR1@${options.requeueBefore}`]),
    "set -euo pipefail",
    // The script's path in a variable of its own: a path written into the message itself would be expanded there.
    `script=${shellWord(layout.shardScript)}`,
    `task="\${SLURM_ARRAY_TASK_ID:?run this script as a job array task: sbatch --array=K $script}"`,
    `shard=$((task + \${SHARD_OFFSET:-0}))`,
    `mkdir -p ${shellWord(logs)}`,
    `exec >>${shellWord(logs)}/shard-"$shard".log 2>&1`,
    `echo "$(date -u +%FT%TZ) shard $shard/${layout.shards}: job \${SLURM_JOB_ID:-?} (array \${SLURM_ARRAY_JOB_ID:-?}, task $task) on $(hostname)"`,
    ...shardRun(
      `${run} run ${shellWord(layout.experiment)}${sets} --shard "$shard/${layout.shards}" --threads "\${SLURM_CPUS_PER_TASK:-${options.cpus}}" \\\n` +
        `  --out ${shellWord(join(work, SHARDS_FOLDER))}/"$shard" --resume --quiet --no-report${tablesWords(options.tables)}${options.yes === true ? " --yes" : ""}`,
      options.requeueBefore,
      options.maxRequeues,
    ),
    "",
  ].join("\n");
  const merge = [
    ...header(`Merges the shards into ${layout.out} once every shard is complete; else lists those to run again, and fails.`),
    `#SBATCH --job-name=${options.name}-merge`,
    `#SBATCH --cpus-per-task=1`,
    `#SBATCH --ntasks=1`,
    ...resources,
    `#SBATCH --chdir=${options.cwd}`,
    `#SBATCH --output=${join(logs, "merge-%j.out")}`,
    "set -euo pipefail",
    `${run} check ${shellWord(work)}`,
    // The shard folders through a file (printf is a builtin: no argument list to overflow), not on merge's
    // command line, which stops at the system's argument limit (~30 000 shard paths).
    `printf '%s\\n' ${shellWord(join(work, SHARDS_FOLDER))}/{1..${layout.shards}} > ${shellWord(join(work, MERGE_LIST))}`,
    `exec ${run} merge ${shellWord(layout.out)} --shard-list ${shellWord(join(work, MERGE_LIST))} --quiet${tablesWords(options.tables)}`,
    "",
  ].join("\n");
  const arrays = slurmArrays(layout);
  const submit = [
    "#!/bin/bash",
    `# Submits the ${layout.shards} shards of ${options.name} (${arrays.length === 1 ? "one job array" : `${arrays.length} job arrays of at most ${layout.arrayLimit} tasks`}) and the merge`,
    "# job after them. Arguments are passed to sbatch for the shards (say --hold, or --qos=...).",
    "# Written by perceptron-lab slurm; prints the job ids.",
    "set -euo pipefail",
    `mkdir -p ${shellWord(logs)}`,
    ...limitChecks(layout.shards, Math.max(...arrays.map(({ size }) => size))),
    "jobs=()",
    // An sbatch refused midway (a per-user limit, say) leaves the arrays before it queued: said, with their ids.
    // (MaxJobCount counts every job the controller holds, other users' and those ended less than MinJobAge ago.)
    "refused() {",
    '  if [ ${#jobs[@]} -eq 0 ]; then echo "Error: sbatch refused the first job array (its message is above): nothing was submitted"',
    `  elif [ \${#jobs[@]} -lt ${arrays.length} ]; then echo "Error: submitting stopped after \${#jobs[@]} of ${arrays.length} job arrays (sbatch refused the next: its message is above); queued: \${jobs[*]}, and no merge job. Cancel them with scancel \${jobs[*]} and write the job again with fewer shards (perceptron-lab slurm --shards)"`,
    // The merge script's path as an argument of its own (quoted as a word), never inside the message's quotes.
    `  else printf 'Error: sbatch refused the merge job (its message is above); the shards are queued (%s). Once the queue has room: sbatch --dependency=afterany:%s %s\\n' "\${jobs[*]}" "$(IFS=:; echo "\${jobs[*]}")" ${shellWord(layout.mergeScript)}`,
    "  fi >&2",
    "}",
    "trap refused ERR",
    ...arrays.map(({ offset, size }) =>
      offset === 0
        ? `id="$(sbatch --parsable "$@" ${shellWord(layout.shardScript)} | cut -d';' -f1)"; jobs+=("$id")`
        : `id="$(sbatch --parsable "$@" --array=1-${size}${options.maxParallel === undefined ? "" : `%${options.maxParallel}`} --export=ALL,SHARD_OFFSET=${offset} --comment=${queueComment(layout, offset)} ${shellWord(layout.shardScript)} | cut -d';' -f1)"; jobs+=("$id")`,
    ),
    `merge="$(sbatch --parsable --dependency=afterany:"$(IFS=:; echo "\${jobs[*]}")" ${shellWord(layout.mergeScript)} | cut -d';' -f1)"`,
    `echo "shards: \${jobs[*]}"`,
    `echo "merge: $merge"`,
    "",
  ].join("\n");
  return { shards, merge, submit };
}

/**
 * submit.sh's checks of the cluster's limits, where scontrol tells them, before it submits anything: each task
 * of an array counts as a job toward MaxJobCount (10 000 by default: 10⁴ shards and the merge are 10 001, and
 * the last sbatch was refused after the others had queued), and an array's task ids must stay below MaxArraySize.
 */
function limitChecks(shards: number, largestArray: number): string[] {
  return [
    `limit() { scontrol show config 2>/dev/null | sed -n "s/^$1 *= *\\([0-9][0-9]*\\).*/\\1/p"; }`,
    'max_jobs="$(limit MaxJobCount || true)"',
    `if [ -n "$max_jobs" ] && [ "$max_jobs" -lt ${shards + 1} ]; then`,
    `  echo "Error: ${shards} shards and the merge are ${shards + 1} jobs (each task of an array counts), past this cluster's MaxJobCount of $max_jobs: write the job again with perceptron-lab slurm --shards $((max_jobs - 1)) or fewer; nothing was submitted" >&2`,
    "  exit 2",
    "fi",
    'max_array="$(limit MaxArraySize || true)"',
    `if [ -n "$max_array" ] && [ "$max_array" -le ${largestArray} ]; then`,
    `  echo "Error: job arrays of ${largestArray} tasks need task ids up to ${largestArray}, and this cluster's MaxArraySize is $max_array: write the job again with perceptron-lab slurm --array-limit $((max_array - 1)); nothing was submitted" >&2`,
    "  exit 2",
    "fi",
  ];
}

/**
 * The lines that run a shard. Without a requeue: `exec` the run, so that scancel's signal reaches node
 * itself. With one (`requeueBefore`), the script stays as node's parent, since Slurm's early signal
 * (`--signal=B:USR1`) goes to the script alone: on USR1 it stops node as scancel would (SIGTERM: the runs
 * in flight finish and are written), waits for it, and requeues the task, which starts again later and
 * resumes the folder; SIGTERM and SIGINT are passed on to node. The script exits with node's status.
 */
function shardRun(command: string, requeueBefore: number | undefined, maxRequeues = 10): string[] {
  if (requeueBefore === undefined) return [`exec ${command}`];
  return [
    // The rerun command of this very shard: beyond the first array its task ids start again at 1.
    'rerun="sbatch --array=$task${SHARD_OFFSET:+ --export=ALL,SHARD_OFFSET=$SHARD_OFFSET} $script"',
    "requeue() {",
    `  echo "$(date -u +%FT%TZ) shard $shard: ${requeueBefore} s before the time limit (Slurm's signal): stopping, then requeueing"`,
    '  kill -TERM "$pid" 2>/dev/null || true',
    '  while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done',
    // A cap on requeues: a shard that cannot finish within any time limit would otherwise loop.
    `  if [ "\${SLURM_RESTART_COUNT:-0}" -ge ${maxRequeues} ]; then`,
    `    echo "Error: shard $shard stopped at its time limit ${maxRequeues} times (--max-requeues ${maxRequeues}): not requeued again; its folder is resumable: give it a longer --time, or run it again with $rerun"`,
    "    exit 75",
    "  fi",
    // Said before: a requeue ends this script at once (Slurm cancels the job to requeue it).
    '  echo "$(date -u +%FT%TZ) shard $shard: stopped; requeueing: it resumes when Slurm starts it again"',
    // This task alone: the array's id with the task's (an array task's SLURM_JOB_ID is the whole array's for its last task).
    '  if ! scontrol requeue "${SLURM_ARRAY_JOB_ID:?}_${SLURM_ARRAY_TASK_ID:?}"; then',
    '    echo "Error: shard $shard could not be requeued (scontrol requeue failed): run it again with $rerun"',
    "    exit 75",
    "  fi",
    "}",
    "pid=",
    "trap requeue USR1",
    "trap 'kill -TERM \"$pid\" 2>/dev/null || true' TERM INT",
    `${command} &`,
    "pid=$!",
    // wait returns early when a trapped signal comes: wait again until node has ended, then end with its
    // status (bash keeps a reaped child's status for a later wait; set -e ends the script on a non-zero one).
    'while kill -0 "$pid" 2>/dev/null; do wait "$pid" || true; done',
    'wait "$pid"',
  ];
}

/** A task's --tables words (none where the experiment's tables are kept). */
function tablesWords(tables: readonly RunTableName[] | undefined): string {
  return tables === undefined ? "" : ` --tables ${tables.join(",")}`;
}
