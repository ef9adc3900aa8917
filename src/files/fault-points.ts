/**
 * Test hooks at every file operation that writes a result folder (see checked-fs.ts), so that tests can
 * aim a kill or an I/O error at each one in turn, through the real command line. Inert unless one of these
 * variables is set, which no user has reason to do:
 *
 * - PERCEPTRON_LAB_TEST_TRACE=1: prints `fault point <k>: <operation> <path>` on stderr at each one;
 * - PERCEPTRON_LAB_TEST_KILL_AT=<k>: the process kills itself with SIGKILL at the k-th (from 1), before it;
 * - PERCEPTRON_LAB_TEST_FAIL_AT=<k>:<CODE>: the k-th fails with that error code (ENOSPC, EIO, …); with
 *   `<k>+:<CODE>` every one from the k-th on fails, as a full disk does.
 */
const TRACE = process.env.PERCEPTRON_LAB_TEST_TRACE === "1";
const KILL_AT = Number(process.env.PERCEPTRON_LAB_TEST_KILL_AT ?? 0);
const FAIL = /^(\d+)(\+?):([A-Z]+)$/.exec(process.env.PERCEPTRON_LAB_TEST_FAIL_AT ?? "");
const ACTIVE = TRACE || KILL_AT > 0 || FAIL !== null;

/** Whether a test hook is set (the hooks' own bookkeeping may then cost a system call; never for a user). */
export const FAULT_POINTS_ACTIVE = ACTIVE;

let count = 0;

/** Called before each write, sync, close, rename and removal of a result folder's file. */
export function faultPoint(operation: string, path: string): void {
  if (!ACTIVE) return;
  count++;
  if (TRACE) process.stderr.write(`fault point ${count}: ${operation} ${path}\n`);
  if (count === KILL_AT) process.kill(process.pid, "SIGKILL");
  if (FAIL !== null) {
    const at = Number(FAIL[1]);
    if (count === at || (FAIL[2] === "+" && count > at)) {
      throw Object.assign(new Error(`${FAIL[3]}: injected by PERCEPTRON_LAB_TEST_FAIL_AT`), { code: FAIL[3] });
    }
  }
}
