/**
 * What a thread's CommonJS entry (worker-entry.cts, exporter-entry.cts, parquet-encoder-entry.cts) loads by
 * import() when the thread starts: `<stem>.bundle.mjs`, the bundle of its module and what it imports that
 * `npm run build` makes (scripts/bundle-cli.mjs), from which a thread starts on a few files instead of ~200; or
 * `<stem>.js` as tsc wrote it, where there is none (a build by tsc alone).
 */
import fs = require("node:fs");
import path = require("node:path");
import url = require("node:url");

function loadThreadModule<T>(stem: string): Promise<T> {
  const bundle = path.join(__dirname, `${stem}.bundle.mjs`);
  return import(url.pathToFileURL(fs.existsSync(bundle) ? bundle : path.join(__dirname, `${stem}.js`)).href) as Promise<T>;
}

export = loadThreadModule;
