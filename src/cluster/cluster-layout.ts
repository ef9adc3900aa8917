import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";

/**
 * The folder a cluster job works in (`perceptron-lab slurm` writes it): the job scripts, `logs/`, one
 * shard folder a shard under `shards/<k>` (k from 1), and cluster.json, which tells `check` what the
 * job is: how many shards, where they merge to, and how a shard is run again.
 */
export interface ClusterLayout {
  readonly scheduler: "slurm";
  /** The experiment file (absolute) and the --set overrides the shards run with. */
  readonly experiment: string;
  readonly overrides: readonly string[];
  readonly shards: number;
  /** The merged result folder (absolute). */
  readonly out: string;
  /** The shards' job script (absolute). */
  readonly shardScript: string;
  readonly mergeScript: string;
  /** Task ids an array may hold (Slurm's MaxArraySize − 1): shards beyond run in further arrays, offset by SHARD_OFFSET. */
  readonly arrayLimit: number;
  /** Marks this job's arrays in the queue: each carries the comment `perceptron-lab-<tag>-<offset>` (see queueComment). */
  readonly tag: string;
}

/** The comment of this job's array whose shards are task id + offset: how `check` finds them in squeue. */
export function queueComment(layout: Pick<ClusterLayout, "tag">, offset: number): string {
  return `${commentPrefix(layout)}${offset}`;
}

/** The offset a queue comment of this job carries (queueComment's inverse), or null for anyone else's. */
export function queueOffset(layout: Pick<ClusterLayout, "tag">, comment: string): number | null {
  const prefix = commentPrefix(layout);
  if (!comment.startsWith(prefix)) return null;
  const offset = Number(comment.slice(prefix.length));
  return Number.isSafeInteger(offset) ? offset : null;
}

function commentPrefix(layout: Pick<ClusterLayout, "tag">): string {
  return `perceptron-lab-${layout.tag}-`;
}

export const CLUSTER_FILE = "cluster.json";
export const SHARDS_FOLDER = "shards";
export const LOGS_FOLDER = "logs";
/** The merge job's list of the shard folders (merge --shard-list), written by merge.sbatch before it merges. */
export const MERGE_LIST = "merge-shards.txt";

/** Shard k's folder in a work folder. */
export function shardFolder(work: string, index: number): string {
  return join(work, SHARDS_FOLDER, String(index));
}

/** The layout a work folder records, or null when it has none. */
export function readClusterLayout(work: string): ClusterLayout | null {
  const path = join(work, CLUSTER_FILE);
  if (!existsSync(path)) return null;
  try {
    const layout = JSON.parse(readFileSync(path, "utf8")) as ClusterLayout;
    if (layout.scheduler === "slurm" && Number.isSafeInteger(layout.shards) && layout.shards >= 1) return layout;
  } catch {
    // reported below
  }
  throw new InputError(`${path}: not a cluster.json written by perceptron-lab slurm`);
}
