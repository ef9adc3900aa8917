import { execFileSync } from "node:child_process";
import { userInfo } from "node:os";
import { type ClusterLayout, queueComment } from "./cluster-layout.js";

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
  const prefix = queueComment(layout, 0).replace(/0$/, "");
  const queue = new Map<number, string>();
  for (const line of text.split("\n")) {
    const [comment, task, state] = line.trim().split("|");
    if (comment === undefined || !comment.startsWith(prefix) || task === undefined || state === undefined) continue;
    const offset = Number(comment.slice(prefix.length));
    const id = Number(task);
    if (Number.isSafeInteger(offset) && Number.isSafeInteger(id)) queue.set(id + offset, state);
  }
  return queue;
}
