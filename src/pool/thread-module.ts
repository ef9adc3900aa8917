import { createRequire } from "node:module";
import { extname } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";

/**
 * Where a thread of the pool's kind `stem` (worker, exporter, parquet-encoder) loads its module from, seen from
 * `from` (the caller's import.meta.url): compiled, the CommonJS entry `<stem>-entry.cjs` (see worker-entry.cts);
 * from the sources, `<stem>.ts` through tsx (execArgv), or the tests' bundle of the workers' module, which
 * re-exports every thread's task under `bundled` (worker.ts).
 */
export function threadModule(stem: string, bundled: string | undefined, from: string): { filename: string; name?: string; execArgv?: string[] } {
  const fromSources = extname(fileURLToPath(from)) === ".ts";
  const bundle = fromSources ? testWorkerBundle() : null;
  if (bundle !== null) return { filename: bundle, ...(bundled === undefined ? {} : { name: bundled }) };
  const filename = new URL(fromSources ? `./${stem}.ts` : `./${stem}-entry.cjs`, from).href;
  const execArgv = fromSources ? typeScriptExecArgv() : undefined;
  return { filename, ...(execArgv === undefined ? {} : { execArgv }) };
}

/**
 * Running from the TypeScript sources, the threads load worker.ts through tsx, unless
 * PERCEPTRON_LAB_TEST_WORKER names a CommonJS bundle of it: the test suite makes one from the same sources
 * each time it starts (test/global-setup.ts), since a thread starts on ~150 ms of CPU from it and on ~650 ms
 * through tsx, which the suite's hundreds of pools would spend again and again.
 */
function testWorkerBundle(): string | null {
  const bundle = process.env.PERCEPTRON_LAB_TEST_WORKER;
  return bundle === undefined || bundle === "" ? null : bundle;
}

/**
 * The options that start a worker thread able to load TypeScript modules (tsx's loader). `undefined` when
 * the parent already runs under tsx: the thread then inherits the parent's options as they are. Passing
 * them explicitly would make Node reject any V8 or process-wide option among them (--max-old-space-size,
 * say), which a thread cannot take on its own.
 */
export function typeScriptExecArgv(): string[] | undefined {
  if (process.execArgv.some((argument) => argument.includes("tsx"))) return undefined;
  const loader = createRequire(import.meta.url).resolve("tsx");
  return [...process.execArgv, "--import", pathToFileURL(loader).href];
}
