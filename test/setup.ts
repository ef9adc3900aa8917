import fc from "fast-check";
import { afterAll } from "vitest";
import { removeTemporaryFolders } from "./temporary-folders.js";

/**
 * Property tests run from a fixed seed, so that every run of the suite (and CI) checks the same cases
 * and a failure replays. Explore other cases with FC_SEED=<n> npx vitest run.
 */
fc.configureGlobal({ seed: process.env.FC_SEED === undefined ? 20261121 : Number(process.env.FC_SEED) });

// Each file's temporary folders (helpers.ts's temporaryFolder) go when its tests are done: a setup file runs
// for every test file, where a module's top level runs once per worker.
afterAll(removeTemporaryFolders);
