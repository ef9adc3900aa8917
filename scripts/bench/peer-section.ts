import { HEAVY_GRID } from "./grids.js";
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism, tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { COMPILED_CLI, ROOT } from "../compiled.js";
import { seconds } from "./timing.js";

/** The peer section: the numpy + numba peer's sweeps beside the tool's, whole processes side by side. */

/** The peer's two sweeps (../shared/peer/README.md): small and heavy, as its run-peer.sh names them. */
const PEER_SWEEPS = [
  { name: "small", runs: 100_000, n: 100, d: 10, margin: 0.1 },
  { name: "heavy", runs: 4_000, ...HEAVY_GRID },
] as const;

/** Where the peer lives (PEER_DIR, else ../shared/peer beside the repository) and the Python that runs it. */
function peerSetup(): { dir: string; python: string } | { skipped: string } {
  const dir = process.env.PEER_DIR ?? fileURLToPath(new URL("../shared/peer/", ROOT));
  if (!existsSync(join(dir, "run-peer.sh"))) return { skipped: `no peer at ${dir} (set PEER_DIR)` };
  const python = process.env.PEER_PYTHON ?? "python3";
  try {
    execFileSync(python, ["-c", "import numpy, numba"], { stdio: "ignore" });
  } catch {
    return { skipped: `${python} cannot import numpy and numba (python3 -m venv .venv && .venv/bin/pip install numpy numba; PEER_PYTHON=.venv/bin/python)` };
  }
  return { dir, python };
}

/** Seconds of wall time of a command, start-up included. */
export function wallSeconds(command: string, args: string[], env: NodeJS.ProcessEnv = process.env): { seconds: number; stdout: string } {
  const start = process.hrtime.bigint();
  const stdout = execFileSync(command, args, { encoding: "utf8", env, stdio: ["ignore", "pipe", "inherit"] });
  return { seconds: Number(process.hrtime.bigint() - start) / 1e9, stdout };
}

/**
 * The tool against the numpy + numba peer on the peer's two sweeps, at 1 worker and at every core, in this
 * one invocation: per-run throughput of the sweep phase (the tool's manifest wall time; the peer's
 * runsPerSecondSweep) and end to end (each process's wall time, start-up included; the peer with numba's
 * cache warmed by one call first, as a researcher's second run would find it). Optimal off, no report.
 */
export function peer() {
  const setup = peerSetup();
  if ("skipped" in setup) return { skipped: setup.skipped };
  const env = { ...process.env, PEER_PYTHON: setup.python, PEER_ARGS: "--cache" };
  const folder = mkdtempSync(join(tmpdir(), "perceptron-lab-peer-"));
  try {
    const cores = availableParallelism();
    const rows = [];
    for (const sweep of PEER_SWEEPS) {
      const args = (workers: number, runs: number) => [join(setup.dir, "run-peer.sh"), String(workers), String(runs), String(sweep.n), String(sweep.d), String(sweep.margin), join(folder, "peer.csv")];
      wallSeconds("bash", args(1, 100), env); // numba's cache, warm
      for (const workers of [...new Set([1, cores])]) {
        const peerRun = wallSeconds("bash", args(workers, sweep.runs), env);
        const peerFigures = JSON.parse(peerRun.stdout.trim().split("\n").filter((line) => line.startsWith("{")).at(-1)!) as { runsPerSecondSweep: number };
        // The tool as the peer runs (the default bounds, no max-margin), then with every bound (`bounds: "all"`) beside.
        const toolRates = (bounds: string, tables: readonly string[] = []) => {
          const experiment = { name: "bench-peer", repeats: sweep.runs, optimal: false, bounds, grid: { n: sweep.n, d: sweep.d, margin: sweep.margin } };
          const file = join(folder, "experiment.json");
          writeFileSync(file, JSON.stringify(experiment));
          const out = join(folder, "out");
          const toolRun = wallSeconds(process.execPath, [COMPILED_CLI, "run", file, "--out", out, "--overwrite", "--threads", String(workers), "--quiet", "--no-report", ...tables]);
          const manifest = JSON.parse(readFileSync(join(out, "manifest.json"), "utf8")) as { wallSeconds: number };
          return { sweep: sweep.runs / manifest.wallSeconds, endToEnd: sweep.runs / toolRun.seconds };
        };
        const tool = toolRates("default");
        // runs.parquet alone: no text formatted anywhere (issue 61's --tables parquet).
        const toolParquet = toolRates("default", ["--tables", "parquet"]);
        const toolAll = toolRates("all");
        const peerRates = { sweep: peerFigures.runsPerSecondSweep, endToEnd: sweep.runs / peerRun.seconds };
        rows.push({
          sweep: sweep.name,
          runs: sweep.runs,
          workers,
          tool,
          toolParquet,
          toolAll,
          peer: peerRates,
          ratio: { sweep: tool.sweep / peerRates.sweep, endToEnd: tool.endToEnd / peerRates.endToEnd },
          ratioParquet: { sweep: toolParquet.sweep / peerRates.sweep, endToEnd: toolParquet.endToEnd / peerRates.endToEnd },
          ratioAll: { sweep: toolAll.sweep / peerRates.sweep, endToEnd: toolAll.endToEnd / peerRates.endToEnd },
        });
      }
    }
    return { python: setup.python, rows };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}
