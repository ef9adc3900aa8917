import { randomBytes } from "node:crypto";
import { mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join, resolve } from "node:path";
import { buildSync } from "esbuild";

/**
 * Runs once around a whole vitest invocation (every tier): the tests leave nothing behind, or the run fails.
 * - Every temporary file or folder a test or a process it started makes lands in one private TMPDIR, which
 *   must be empty at the end: what is left is named, removed, and fails the run (but tsx's cache of compiled
 *   modules, which the TypeScript worker threads read: removed with the folder).
 * - Every process a test starts inherits PERCEPTRON_LAB_TEST_SESSION: one still alive at the end (a child a
 *   test forgot, or one a timed-out test could not stop) is named, killed with its process group, and fails
 *   the run. vitest's own workers (this process's children) are not counted.
 * And it bundles the pool's worker from the sources, for the pools the tests start from them (see
 * testWorkerBundle in src/pool/run-pool.ts): fresh from the sources each time, so never stale.
 */
const SESSION_VARIABLE = "PERCEPTRON_LAB_TEST_SESSION";

interface Session {
  /** The projects (tiers) of this vitest invocation that have started and not yet ended. */
  users: number;
  readonly teardown: () => void;
}

/**
 * vitest calls a global setup once for each project (tier) of an invocation, before any test, and their
 * teardowns once all of them have ended: the first call sets the session up and the last teardown checks and
 * removes it, so that no tier's setup moves the TMPDIR or the session under another's tests.
 */
const SESSION_KEY = Symbol.for("perceptron-lab.test-session");
const shared = globalThis as typeof globalThis & { [SESSION_KEY]?: Session };

export default function setup(): () => void {
  const session = (shared[SESSION_KEY] ??= { users: 0, teardown: startSession() });
  session.users++;
  return () => {
    if (--session.users > 0) return;
    delete shared[SESSION_KEY];
    session.teardown();
  };
}

function startSession(): () => void {
  const session = randomBytes(8).toString("hex");
  const outerTmp = tmpdir();
  const privateTmp = mkdtempSync(join(outerTmp, "perceptron-lab-tests-"));
  // tsx's cache of compiled modules (the TypeScript worker threads') lives in the private TMPDIR too, and goes
  // with it: 0.12.2 linked it to the outer TMPDIR, where it stayed after the run.
  const tsxCache = `tsx-${process.geteuid?.() ?? userInfo().username}`;
  process.env[SESSION_VARIABLE] = session;
  process.env.TMPDIR = privateTmp;
  const worker = bundleWorker(privateTmp);
  process.env.PERCEPTRON_LAB_TEST_WORKER = worker;
  return () => {
    rmSync(worker, { force: true });
    const problems: string[] = [];
    const survivors = processesOfSession(session);
    for (const { pid, command } of survivors) {
      problems.push(`process ${pid} (${command}) was still running`);
      kill(pid);
    }
    const left = readdirSync(privateTmp).filter((name) => name !== tsxCache);
    if (left.length > 0) problems.push(`temporary files left in TMPDIR: ${left.slice(0, 10).join(", ")}${left.length > 10 ? ` and ${left.length - 10} more` : ""}`);
    rmSync(privateTmp, { recursive: true, force: true });
    process.env.TMPDIR = outerTmp;
    delete process.env[SESSION_VARIABLE];
    delete process.env.PERCEPTRON_LAB_TEST_WORKER;
    if (problems.length > 0) {
      // vitest reports an error thrown here but keeps its exit code: set it, so that the run fails.
      process.exitCode = 1;
      throw new Error(`The tests left things behind (removed now):\n- ${problems.join("\n- ")}`);
    }
  };
}

/**
 * src/pool/worker.ts and what it imports, as one CommonJS file (see worker-entry.cts for why CommonJS), its
 * dependencies left to node_modules. It lies two folders below the repository, as the sources do, so that
 * the paths they resolve from their own location (the WebAssembly kernel's, dist/wasm) stay right.
 */
function bundleWorker(tmp: string): string {
  const outfile = resolve("node_modules", ".perceptron-lab-test-worker", `worker-${tmp.slice(-6)}.cjs`);
  buildSync({
    entryPoints: [resolve("src/pool/worker.ts")],
    outfile,
    bundle: true,
    format: "cjs",
    platform: "node",
    target: "node20",
    packages: "external",
    logLevel: "warning",
    define: { "import.meta.url": "__workerBundleUrl" },
    banner: { js: 'const __workerBundleUrl = require("node:url").pathToFileURL(__filename).href;' },
  });
  return outfile;
}

/** The processes other than this one whose environment holds this session's marker (Linux's /proc; none elsewhere). */
function processesOfSession(session: string): { pid: number; command: string }[] {
  const marker = `${SESSION_VARIABLE}=${session}\0`;
  let entries: string[];
  try {
    entries = readdirSync("/proc");
  } catch {
    return [];
  }
  const found: { pid: number; command: string }[] = [];
  for (const entry of entries) {
    const pid = Number(entry);
    if (!Number.isInteger(pid) || pid === process.pid) continue;
    try {
      if (!`${readFileSync(`/proc/${pid}/environ`, "latin1")}\0`.includes(marker)) continue;
      const command = readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").filter(Boolean).join(" ");
      // vitest's own worker processes (forks) and the esbuild service that vite keeps, children of this one,
      // end after this teardown.
      const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
      const parent = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]); // after the name: state, parent
      if (parent === process.pid && /node_modules\/vitest\/|esbuild --service=/.test(command)) continue;
      // A zombie (ended, not yet reaped by its parent) has an empty command line and runs nothing.
      if (command !== "") found.push({ pid, command: command.length > 160 ? `${command.slice(0, 160)}…` : command });
    } catch {
      // Ended meanwhile, or not ours to read.
    }
  }
  return found;
}

/** SIGKILL to the process's group where it leads one, else to the process. */
function kill(pid: number): void {
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    try {
      process.kill(pid, "SIGKILL");
    } catch {
      // Already gone.
    }
  }
}
