/**
 * The CommonJS entry of the pool's worker threads (compiled to worker-entry.cjs): it loads the worker
 * module (worker.ts, ESM) by import() once, when the thread starts, and hands each batch to it.
 *
 * Piscina loads a worker file with require() first, and Node 20.19+ require()s an ES module
 * synchronously ("require(esm)"). Once, in CI's kill tests on a loaded machine, Node 20.20 aborted a
 * whole process inside that path (FATAL ERROR: v8::Module::IsGraphAsync must be used on an instantiated
 * module, from piscina's worker.js require()); Node's own notes describe races of require(esm) with an
 * import() of the same module. The trigger was not isolated. A CommonJS entry is require()d as plain
 * CommonJS, and the ES module is loaded only by import(): the require(esm) path is never taken.
 */
import loadThreadModule = require("./thread-module-entry.cjs");

const worker = loadThreadModule<typeof import("./worker.js")>("worker");

async function runBatch(batch: Parameters<(typeof import("./worker.js"))["default"]>[0]): Promise<ReturnType<(typeof import("./worker.js"))["default"]>> {
  return (await worker).default(batch);
}

export = runBatch;
