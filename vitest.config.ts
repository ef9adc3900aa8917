import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["test/**/*.test.ts"],
    setupFiles: ["test/setup.ts"],
    // End-to-end tests start real processes and worker pools; the machine has two shared cores.
    testTimeout: 60_000,
    hookTimeout: 60_000,
  },
});
