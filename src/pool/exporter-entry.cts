/**
 * The CommonJS entry of the pool's exporter threads (compiled to exporter-entry.cjs), as worker-entry.cts
 * is the workers': it loads exporter.ts (ESM) by import() when the thread starts.
 */
import loadThreadModule = require("./thread-module-entry.cjs");

const exporter = loadThreadModule<typeof import("./exporter.js")>("exporter");

async function exportBatch(task: Parameters<(typeof import("./exporter.js"))["default"]>[0]): Promise<ReturnType<(typeof import("./exporter.js"))["default"]>> {
  return (await exporter).default(task);
}

export = exportBatch;
