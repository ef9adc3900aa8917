/**
 * The CommonJS entry of the pool's exporter threads (compiled to exporter-entry.cjs), as worker-entry.cts
 * is the workers': it loads exporter.ts (ESM) by import() when the thread starts.
 */
import fs = require("node:fs");
import path = require("node:path");
import url = require("node:url");

// The bundle of exporter.js and what it imports that `npm run build` makes (scripts/bundle-cli.mjs): a thread then
// starts from a few files, not ~200; exporter.js itself where there is none (a build by tsc alone).
const bundle = path.join(__dirname, "exporter.bundle.mjs");
const exporter: Promise<typeof import("./exporter.js")> = fs.existsSync(bundle) ? import(url.pathToFileURL(bundle).href) : import("./exporter.js");

async function exportBatch(task: Parameters<(typeof import("./exporter.js"))["default"]>[0]): Promise<ReturnType<(typeof import("./exporter.js"))["default"]>> {
  return (await exporter).default(task);
}

export = exportBatch;
