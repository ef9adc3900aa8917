import { execFileSync } from "node:child_process";
import { userInfo } from "node:os";
import { type ClusterLayout, queueOffset } from "./cluster-layout.js";

/**
 * This job's shard tasks in Slurm's queue, by shard (task id + the array's offset, which its comment
 * carries) and state (PENDING, RUNNING, …), from `squeue --array`: one line a task, this user's jobs only.
 * null when squeue does not answer (no Slurm here, or the controller is down).
 */
export function slurmQueue(layout: Pick<ClusterLayout, "tag">): Map<number, string> | null {
  let text: string;
  try {
    text = execFileSync("squeue", [`--user=${userInfo().username}`, "--noheader", "--array", "--format=%k|%K|%T"], {
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
      timeout: 20_000,
      maxBuffer: 1 << 28,
    });
  } catch {
    return null;
  }
  const queue = new Map<number, string>();
  for (const line of text.split("\n")) {
    const [comment, task, state] = line.trim().split("|");
    if (comment === undefined || task === undefined || state === undefined) continue;
    const offset = queueOffset(layout, comment);
    const id = Number(task);
    if (offset !== null && Number.isSafeInteger(id)) queue.set(id + offset, state);
  }
  return queue;
}
