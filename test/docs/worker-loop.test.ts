import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

/** scripts/worker-loop.mjs, which the README gives for timing the pool worker's function: it must keep working on dist/ (npm test builds it first). */
describe("scripts/worker-loop.mjs", () => {
  it("times the worker's function over a sweep's batches, small and heavy, and refuses what it cannot do", () => {
    const run = (...args: string[]) => spawnSync(process.execPath, ["scripts/worker-loop.mjs", ...args], { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
    const small = run("2000", "small");
    expect(small.status).toBe(0);
    expect(small.stdout).toMatch(/^small: \d+ runs\/s, \d+\.\d\d µs a run \(1000 runs timed after 1000\)\n$/);
    const heavy = run("80", "heavy");
    expect(heavy.status).toBe(0);
    expect(heavy.stdout).toMatch(/^heavy: \d+ runs\/s, \d+\.\d\d µs a run \(40 runs timed after 40\)\n$/);
    const wrong = run("100", "medium");
    expect(wrong.status).toBe(2);
    expect(wrong.stderr).toBe("usage: node scripts/worker-loop.mjs [runs ≥ 2] [small|heavy] [dist folder]\n");
  });
});
