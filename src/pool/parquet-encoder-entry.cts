/**
 * The CommonJS entry of the parquet thread (compiled to parquet-encoder-entry.cjs), as worker-entry.cts is the
 * workers': it loads parquet-encoder.ts (ESM) by import() when the thread starts.
 */
import loadThreadModule = require("./thread-module-entry.cjs");

const encoder = loadThreadModule<typeof import("./parquet-encoder.js")>("parquet-encoder");

async function encodeParquet(task: Parameters<(typeof import("./parquet-encoder.js"))["default"]>[0]): Promise<ReturnType<(typeof import("./parquet-encoder.js"))["default"]>> {
  return (await encoder).default(task);
}

export = encodeParquet;
