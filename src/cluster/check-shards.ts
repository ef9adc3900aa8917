import { closeSync, fstatSync, openSync, readSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { lockState } from "../runner/folder-lock.js";
import { findManifest, type Manifest } from "../runner/manifest.js";
import { CLUSTER_FILE, LOGS_FOLDER, readClusterLayout, shardFolder, type ClusterLayout } from "./cluster-layout.js";
import { slurmQueue } from "./slurm-queue.js";
import { slurmRerunCommands } from "./slurm-scripts.js";

/**
 * A shard's state: complete; running (its folder's lock is live, or Slurm says so); queued (a task of it
 * waits in Slurm's queue); stopped (begun, not complete, neither running nor queued: cancelled, killed,
 * timed out or failed; its rerun resumes it); missing (never begun, not queued); or foreign (the folder
 * holds another experiment's or another split's results).
 */
export type ShardState = "complete" | "running" | "queued" | "stopped" | "missing" | "foreign";

export interface ShardCheck {
  readonly index: number;
  readonly folder: string;
  readonly state: ShardState;
  /** What the state rests on, in words. */
  readonly detail: string;
}

export interface ShardsCheck {
  readonly layout: ClusterLayout;
  readonly shards: readonly ShardCheck[];
  /** Every shard complete, of one experiment file. */
  readonly complete: boolean;
  /** The commands that run the shards that are neither complete nor running again. */
  readonly rerun: readonly string[];
  /** The command that merges them (once complete). */
  readonly merge: string;
  /** Whether Slurm's queue was read (squeue answered): without it, a queued task reads as missing. */
  readonly queueKnown: boolean;
}

/**
 * The state of every shard of a work folder written by `perceptron-lab slurm`, from the shard folders and
 * Slurm's queue (`queue`: shard → task state; by default read with squeue). Reads only.
 */
export function checkShards(work: string, options: { readonly queue?: ReadonlyMap<number, string> | null } = {}): ShardsCheck {
  const layout = readClusterLayout(work);
  if (layout === null) throw new InputError(`${work}: no ${CLUSTER_FILE}; check reads a work folder written by perceptron-lab slurm`);
  const queue = options.queue === undefined ? slurmQueue(layout) : options.queue;
  const manifests: (Manifest | Error | null)[] = [];
  for (let index = 1; index <= layout.shards; index++) {
    try {
      manifests.push(findManifest(shardFolder(work, index)));
    } catch (error) {
      manifests.push(error as Error);
    }
  }
  // The experiment file the shards ran: the one most of them name (the file may have been edited since
  // the job was written, and then it is still the shards' own that merge checks them against).
  const hash = mostCommon(manifests.flatMap((manifest) => (manifest === null || manifest instanceof Error ? [] : [manifest.experiment.hash])));
  const shards = manifests.map((manifest, k): ShardCheck => {
    const index = k + 1;
    const folder = shardFolder(work, index);
    if (manifest instanceof Error) return { index, folder, state: "foreign", detail: manifest.message };
    const check = shardCheck(index, folder, manifest, layout, hash, queue?.get(index));
    if (check.state !== "missing" && check.state !== "stopped") return check;
    // Why it stopped, where its task said so: its log's last error, or last line (a task that died before its manifest reads as missing).
    const last = lastLogLine(join(work, LOGS_FOLDER, `shard-${index}.log`));
    return last === null ? check : { ...check, detail: `${check.detail}; its log ends: ${last}` };
  });
  const rerun = shards.filter((shard) => shard.state === "missing" || shard.state === "stopped").map((shard) => shard.index);
  return {
    layout,
    shards,
    complete: shards.every((shard) => shard.state === "complete"),
    rerun: rerun.length === 0 ? [] : slurmRerunCommands(layout, rerun),
    merge: `sbatch ${layout.mergeScript}`,
    queueKnown: queue !== null,
  };
}

function shardCheck(index: number, folder: string, manifest: Manifest | null, layout: ClusterLayout, hash: string | null, queued: string | undefined): ShardCheck {
  const lock = lockState(folder);
  const inQueue = (): ShardCheck | null => {
    if (queued === undefined) return null;
    return { index, folder, state: queued === "RUNNING" || queued === "COMPLETING" ? "running" : "queued", detail: `Slurm: ${queued}` };
  };
  if (manifest === null) {
    if (lock?.live) return { index, folder, state: "running", detail: `starting (${lock.holder})` };
    return inQueue() ?? { index, folder, state: "missing", detail: `no ${join("shards", String(index), "manifest.json")} yet` };
  }
  if (manifest.shard === null || manifest.shard.index !== index || manifest.shard.count !== layout.shards) {
    const held = manifest.shard === null ? "a whole sweep" : `shard ${manifest.shard.index}/${manifest.shard.count}`;
    return { index, folder, state: "foreign", detail: `holds ${held}, not shard ${index}/${layout.shards}` };
  }
  if (hash !== null && manifest.experiment.hash !== hash) {
    return { index, folder, state: "foreign", detail: `ran another experiment file (sha256 ${manifest.experiment.hash.slice(0, 12)}… against ${hash.slice(0, 12)}…)` };
  }
  if (lock?.live) return { index, folder, state: "running", detail: `${lock.holder}; lock refreshed ${lock.ageSeconds} s ago` };
  if (manifest.status === "complete") return { index, folder, state: "complete", detail: `${manifest.counts.runs} runs` };
  return inQueue() ?? { index, folder, state: "stopped", detail: `${manifest.status}, and no process writes it: its rerun resumes it` };
}

/** The value found most often (the first of them on a tie), or null when there is none. */
function mostCommon(values: readonly string[]): string | null {
  const counts = new Map<string, number>();
  for (const value of values) counts.set(value, (counts.get(value) ?? 0) + 1);
  let best: string | null = null;
  for (const [value, count] of counts) if (best === null || count > counts.get(best)!) best = value;
  return best;
}

/**
 * What a shard's log says of why it stopped: its last `Error:` line, else its last non-empty line (its last 4 KiB
 * read, the line cut to 200 characters), or null where there is none.
 */
function lastLogLine(path: string): string | null {
  let fd: number;
  try {
    fd = openSync(path, "r");
  } catch {
    return null;
  }
  try {
    const size = fstatSync(fd).size;
    const length = Math.min(size, 4096);
    const bytes = Buffer.alloc(length);
    readSync(fd, bytes, 0, length, size - length);
    // The last error the task said, where it said one: the lines after it (the CLI's "Run with --help…") say less.
    const lines = bytes.toString("utf8").split(/\r?\n/).filter((text) => text.trim() !== "");
    const line = lines.findLast((text) => text.startsWith("Error:")) ?? lines.at(-1);
    if (line === undefined) return null;
    return line.length > 200 ? `${line.slice(0, 199)}…` : line;
  } finally {
    closeSync(fd);
  }
}
