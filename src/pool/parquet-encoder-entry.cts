/**
 * The CommonJS entry of the parquet thread (compiled to parquet-encoder-entry.cjs), as worker-entry.cts is the
 * workers': it loads parquet-encoder.ts (ESM) by import() when the thread starts.
 */
import fs = require("node:fs");
import path = require("node:path");
import url = require("node:url");

// The bundle of parquet-encoder.js and what it imports that `npm run build` makes (scripts/bundle-cli.mjs): a thread then
// starts from a few files, not ~200; parquet-encoder.js itself where there is none (a build by tsc alone).
const bundle = path.join(__dirname, "parquet-encoder.bundle.mjs");
const encoder: Promise<typeof import("./parquet-encoder.js")> = fs.existsSync(bundle) ? import(url.pathToFileURL(bundle).href) : import("./parquet-encoder.js");

async function encodeParquet(task: Parameters<(typeof import("./parquet-encoder.js"))["default"]>[0]): Promise<ReturnType<(typeof import("./parquet-encoder.js"))["default"]>> {
  return (await encoder).default(task);
}

export = encodeParquet;
