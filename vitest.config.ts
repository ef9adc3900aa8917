import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

/**
 * The tests in tiers, told apart by file name: `name.TIER.test.ts` belongs to the heavy tier TIER, every
 * other `name.test.ts` to the fast one. `npm test` runs the fast tier (no cluster, no browser, no kill
 * loop); `npm run test:TIER` one heavy tier; `npm run test:all` every tier; .ci/run all of them, and the
 * fast one again on the second engine (`npm run test:engine`).
 */
export const HEAVY_TIERS = {
  faults: "kills, signals and injected faults: the command line stopped at every file operation",
  e2e: "the command line end to end: every command, its messages and exit codes",
  browser: "the report in headless Chromium (Debian's chromium)",
  slurm: "a real Slurm job array on a private cluster that .ci/run starts",
  package: "the packed tarball installed in an empty project",
} as const;

const heavy = (tier: string) => `test/**/*.${tier}.test.ts`;

/** The fast tier's files that replace a module with vi.mock: they cannot share a worker's modules. */
const MOCKING = ["test/export/line-file-sync.test.ts", "test/math/sort-ascending.test.ts"];

export default defineConfig({
  test: {
    setupFiles: ["test/setup.ts"],
    globalSetup: ["test/global-setup.ts"],
    // Generous, so that a machine five times slower than a quiet 2-core one does not trip them: waits on
    // processes are event-driven, these only catch a hang.
    testTimeout: 300_000,
    hookTimeout: 300_000,
    // A file per core (vitest's default leaves one core idle): most fast tests compute in one thread, and the
    // heavy ones wait on processes, a cluster or a browser as often as they compute.
    maxWorkers: availableParallelism(),
    projects: [
      {
        extends: true,
        // Worker threads rather than processes: ~45 s less CPU over the tier's ~60 files. Its tests neither
        // change the working folder nor handle signals, which only a process can. And the files of a worker
        // share its modules (isolate: false): each file no longer imports the engine afresh, ~60 s of CPU
        // less over the tier (256 → 193 s, measured with /usr/bin/time). The files that replace a module
        // (vi.mock) need modules of their own: they run in "fast-mocks", which `npm test` runs too.
        test: {
          name: "fast",
          include: ["test/**/*.test.ts"],
          exclude: [...Object.keys(HEAVY_TIERS).map(heavy), ...MOCKING],
          pool: "threads" as const,
          isolate: false,
        },
      },
      { extends: true, test: { name: "fast-mocks", include: MOCKING, pool: "threads" as const } },
      ...Object.keys(HEAVY_TIERS).map((tier) => ({
        extends: true as const,
        test: { name: tier, include: [heavy(tier)], testTimeout: 600_000, hookTimeout: 600_000 },
      })),
    ],
  },
});
