import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * The repository's root: the nearest folder above this module that holds package.json. Found rather than
 * written as "../", so that the bench's bundle (npm run bench:bundle, in scripts/.bench/) finds it too.
 */
export const ROOT = (() => {
  for (let folder = new URL("./", import.meta.url); ; folder = new URL("../", folder)) {
    if (existsSync(new URL("package.json", folder))) return folder;
    if (folder.pathname === "/") throw new Error(`no package.json above ${fileURLToPath(import.meta.url)}`);
  }
})();

/**
 * The compiled tool (dist/, which `npm install` builds): what `npx perceptron-lab` runs, and what the
 * bench's sweep figures measure. Its modules are loaded by path and typed by their sources.
 */
const DIST = new URL("dist/", ROOT);

export const COMPILED_CLI = fileURLToPath(new URL("cli/perceptron-lab.mjs", DIST));

/** A module of dist/ by its path there ("pool/batch-output.js"), typed as T (its source's module type). */
export async function compiled<T>(path: string): Promise<T> {
  if (!existsSync(COMPILED_CLI)) throw new Error("dist/ is missing: run `npm run build` first");
  return (await import(new URL(path, DIST).href)) as T;
}
