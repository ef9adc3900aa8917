// npm run build, after tsc: bundles, with esbuild, what a process and its threads load at their start, so that
// each starts from a few files instead of hundreds (Node's module loader, resolving, reading and linking each
// file, was a third of a shard's start: docs/beyond-one-machine.md):
//   - the command line: dist/cli/main.js and every module of dist/ it imports, with the pure-JavaScript packages
//     it loads, into dist/cli/perceptron-lab.mjs (the package's bin) and its chunks beside it;
//   - the pool's threads: dist/pool/worker.js, exporter.js and parquet-encoder.js into dist/pool/<stem>.bundle.mjs
//     (and shared chunks), which their CommonJS entries (worker-entry.cts…) load where they exist.
// The library (dist/index.js) stays as tsc wrote it.
//
// Modules that find files next to themselves keep doing so: each of dist/'s modules sees, as its import.meta.url,
// the URL its own file has in dist/ (so the threads' entries, the WebAssembly kernel and package.json are found
// where they are). yargs and piscina, which find files beside their own (locales, piscina's worker), see their
// files where npm installed them. Packages a command loads only for some work (the report's, YAML, quadprog, the
// CSV reader) stay outside, loaded from node_modules when used.
import { build } from "esbuild";
import { chmodSync, readdirSync, rmSync } from "node:fs";
import { createRequire } from "node:module";
import { readFile } from "node:fs/promises";
import { dirname, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

/**
 * The packages bundled: pure JavaScript, which a run loads. Those the sources load only when used
 * (createRequire(import.meta.url)("…"): Parquet's writer, the folder lock) become the bundle's require("…"),
 * which esbuild bundles and still evaluates at the first call only.
 */
const BUNDLED = new Set([
  ...["zod", "csv-stringify", "simple-statistics", "seedrandom", "p-limit", "yocto-queue"],
  ...["hyparquet", "hyparquet-writer", "proper-lockfile", "graceful-fs", "retry", "signal-exit"],
  ...["yargs", "yargs-parser", "y18n", "cliui", "escalade", "get-caller-file", "string-width", "strip-ansi", "ansi-regex", "wrap-ansi", "ansi-styles", "emoji-regex", "get-east-asian-width"],
  "piscina",
]);
/**
 * The bundled packages that find files by their own location (yargs its locales, piscina its worker): their
 * import.meta.url, __dirname and __filename become the place their file has in the package as installed,
 * found when the bundle runs from the package's entry (import.meta.resolve, require.resolve), wherever npm put it.
 */
const LOCATED = ["yargs", "piscina"];
const LAZY = /createRequire\(import\.meta\.url\)\(("([^"]+)")\)/g;

const packageOf = (specifier) => (specifier.startsWith("@") ? specifier.split("/").slice(0, 2).join("/") : specifier.split("/")[0]);
const slashes = (path) => path.split("\\").join("/");

/** esbuild's plugin for a bundle written to `outDir`: what is bundled, and where each module believes it is. */
function located(outDir) {
  return {
    name: "perceptron-lab",
    setup(bundle) {
      bundle.onResolve({ filter: /^[^./]/ }, (args) => {
        if (args.path.startsWith("node:") || !BUNDLED.has(packageOf(args.path))) return { path: args.path, external: true };
        return undefined;
      });
      for (const name of LOCATED) {
        // Where the package's entry is for import and for require (piscina's differ), at build time.
        const importRoot = dirname(fileURLToPath(import.meta.resolve(name)));
        const requireRoot = dirname(createRequire(import.meta.url).resolve(name));
        bundle.onLoad({ filter: new RegExp(`[\\\\/]node_modules[\\\\/]${name}[\\\\/].*\\.[cm]?js$`) }, async (args) => {
          const text = await readFile(args.path, "utf8");
          const own = (root) => JSON.stringify(slashes(relative(root, args.path)));
          // An ES module: its import.meta.url. CommonJS: its __dirname and __filename (import.meta there would make
          // esbuild take the file for an ES module).
          const esm = text.replaceAll("import.meta.url", `new URL(${own(importRoot)}, import.meta.resolve(${JSON.stringify(name)})).href`);
          const cjs =
            /\b__(dirname|filename)\b/.test(text) && !text.includes("import.meta")
              ? `var __filename = require("node:path").join(require("node:path").dirname(require.resolve(${JSON.stringify(name)})), ${own(requireRoot)}), __dirname = require("node:path").dirname(__filename);\n`
              : "";
          return { contents: cjs + esm, loader: "js", resolveDir: dirname(args.path) };
        });
      }
      bundle.onLoad({ filter: /[\\/]dist[\\/].*\.js$/ }, async (args) => {
        const text = await readFile(args.path, "utf8");
        const own = JSON.stringify(slashes(relative(resolve(outDir), args.path)));
        const lazy = text.replace(LAZY, (call, quoted, specifier) => (BUNDLED.has(packageOf(specifier)) ? `require(${quoted})` : call));
        return { contents: lazy.replaceAll("import.meta.url", `new URL(${own}, import.meta.url).href`), loader: "js", resolveDir: dirname(args.path) };
      });
    },
  };
}

/** Bundles `entries` into `outDir`, with shared chunks named `<chunks>-<hash>.mjs` there; an earlier build's files removed first. */
async function bundleInto(outDir, entries, chunks) {
  const ours = new RegExp(`^(${chunks}-[A-Z0-9]+|${entries.map((entry) => entry.out.replace(".", "\\.")).join("|")})\\.mjs$`);
  for (const name of readdirSync(outDir)) if (ours.test(name)) rmSync(join(outDir, name));
  await build({
    entryPoints: entries,
    outdir: outDir,
    outExtension: { ".js": ".mjs" },
    chunkNames: `${chunks}-[hash]`,
    bundle: true,
    splitting: true,
    format: "esm",
    platform: "node",
    target: "node20",
    logLevel: "warning",
    // The bundled CommonJS packages' require() of Node's own modules.
    banner: { js: "import { createRequire as __bundleRequire } from 'node:module'; const require = __bundleRequire(import.meta.url);" },
    plugins: [located(outDir)],
  });
}

await bundleInto("dist/cli", [{ in: "dist/cli/main.js", out: "perceptron-lab" }], "perceptron-lab");
chmodSync("dist/cli/perceptron-lab.mjs", 0o755);
await bundleInto("dist/pool", ["worker", "exporter", "parquet-encoder"].map((stem) => ({ in: `dist/pool/${stem}.js`, out: `${stem}.bundle` })), "thread");
