import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

/** The temporary folders made by the running test file, removed when its tests are done (test/setup.ts). */
const temporaryFolders: string[] = [];

/**
 * Removes the running test file's temporary folders. test/setup.ts calls it after each file's tests: a module
 * of the fast tier is evaluated once per worker (vitest's isolate: false), so a hook registered here at its
 * first import would have cleaned up after the first file of each worker only.
 */
export function removeTemporaryFolders(): void {
  for (const folder of temporaryFolders.splice(0)) rmSync(folder, { recursive: true, force: true });
}

/** A fresh temporary folder, removed after the test file's last test. */
export function temporaryFolder(prefix = "perceptron-lab-"): string {
  const folder = mkdtempSync(join(tmpdir(), prefix));
  temporaryFolders.push(folder);
  return folder;
}

