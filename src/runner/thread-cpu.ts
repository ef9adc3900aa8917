import { readFileSync } from "node:fs";

/**
 * CPU seconds this process's main thread (the coordinator, not its worker threads) has run, from Linux's
 * /proc/self/task/<pid>/schedstat (nanoseconds on a CPU); null where that file does not exist. Unlike
 * the event loop's busy time, it does not count time the thread was ready but waiting for a core, which
 * on a machine with as many workers as cores is most of it.
 */
export function mainThreadCpuSeconds(): number | null {
  try {
    const fields = readFileSync(`/proc/self/task/${process.pid}/schedstat`, "utf8").trim().split(/\s+/);
    const nanoseconds = Number(fields[0]);
    return Number.isFinite(nanoseconds) ? nanoseconds / 1e9 : null;
  } catch {
    return null;
  }
}
