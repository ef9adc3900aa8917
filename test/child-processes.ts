import { spawn, type ChildProcess, type SpawnOptions } from "node:child_process";
import { afterEach } from "vitest";

/**
 * Child processes that a test starts without waiting for them (to signal them, or to run several at once).
 * Each leads a process group of its own, so that everything it starts can be stopped with it; whatever is
 * still running when its test ends (passed, failed or timed out) is killed, group-wide, before the next
 * test starts. Synchronous spawns need none of this: the test cannot end while they run, and they are given
 * a timeout (see cliSync's callers).
 */
const running = new Set<ChildProcess>();

// Registered when a test file first imports this module (vitest evaluates it afresh for each file).
afterEach(async () => {
  const left = [...running];
  running.clear();
  await Promise.all(left.map(killGroup));
});

/** Starts `command` as the leader of a new process group, tracked until it exits. */
export function spawnInGroup(command: string, args: readonly string[], options: SpawnOptions = {}): ChildProcess {
  const child = spawn(command, args, { ...options, detached: true });
  running.add(child);
  child.on("exit", () => running.delete(child));
  return child;
}

/** SIGKILL to the child's whole process group, resolved once the child has exited. */
export function killGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null || child.pid === undefined) return Promise.resolve();
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  try {
    process.kill(-child.pid, "SIGKILL");
  } catch {
    child.kill("SIGKILL");
  }
  return exited;
}

export interface Finished {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
  readonly stdout: string;
  readonly stderr: string;
}

/** What a started child printed, once it has exited and its output is read to the end. */
export function finished(child: ChildProcess): Promise<Finished> {
  let stdout = "";
  let stderr = "";
  child.stdout?.on("data", (chunk) => (stdout += chunk));
  child.stderr?.on("data", (chunk) => (stderr += chunk));
  return new Promise((resolve) => child.on("close", (code, signal) => resolve({ code, signal, stdout, stderr })));
}

/**
 * Resolves once `condition` holds, checked every 20 ms; rejects if the child exits first. It has no deadline
 * of its own: the test's timeout (generous, so that a loaded machine does not trip it) is the only one.
 */
export async function waitUntil(condition: () => boolean, child?: ChildProcess): Promise<void> {
  while (!condition()) {
    if (child !== undefined && (child.exitCode !== null || child.signalCode !== null)) {
      throw new Error(`the child process exited (code ${child.exitCode}, signal ${child.signalCode}) before the awaited condition held`);
    }
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}
