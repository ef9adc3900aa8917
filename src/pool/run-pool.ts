import { availableParallelism } from "node:os";
import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Piscina } from "piscina";
import type { RunRow, RunSpec } from "../run/run-types.js";

export interface RunPoolOptions {
  /** Worker threads; default: the machine's available parallelism. */
  readonly threads?: number;
}

/**
 * A pool of worker threads that run batches of run specs. The engine (Piscina) stays private.
 *
 * The worker is this folder's `worker` module with this module's own extension: `worker.js` when running
 * from the compiled output (dist/), `worker.ts` when running the TypeScript sources. In the latter case
 * the threads are started with tsx's loader (`--import tsx`), so the sources load whether or not the
 * parent process itself was started with it (tsx, vitest, node --import tsx).
 */
export class RunPool {
  readonly #pool: Piscina<readonly RunSpec[], RunRow[]>;
  readonly threads: number;

  constructor(options: RunPoolOptions = {}) {
    this.threads = options.threads ?? availableParallelism();
    const extension = extname(fileURLToPath(import.meta.url));
    const filename = new URL(`./worker${extension}`, import.meta.url).href;
    this.#pool = new Piscina({
      filename,
      minThreads: this.threads,
      maxThreads: this.threads,
      idleTimeout: 60_000,
      execArgv: extension === ".ts" ? typeScriptExecArgv() : process.execArgv,
    });
  }

  /** Runs one batch; the rows come back in the order of the specs. */
  run(batch: readonly RunSpec[]): Promise<RunRow[]> {
    return this.#pool.run(batch);
  }

  async close(): Promise<void> {
    await this.#pool.close();
  }
}

function typeScriptExecArgv(): string[] {
  if (process.execArgv.some((argument) => argument.includes("tsx"))) return process.execArgv;
  const loader = createRequire(import.meta.url).resolve("tsx");
  return [...process.execArgv, "--import", pathToFileURL(loader).href];
}
