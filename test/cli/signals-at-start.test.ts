import { spawnSync } from "node:child_process";
import { describe, expect, it } from "vitest";

describe("a command's start", () => {
  it("installs no SIGINT or SIGTERM handler of its own before it locks a folder: Ctrl-C ends a long plan at once", () => {
    // proper-lockfile's signal-exit, imported with run's modules, installed JavaScript handlers that wait for the
    // event loop: a grid of 2.5·10⁷ combinations was planned to the end (~40 s) before a SIGINT was heard.
    const script = 'await import("./dist/cli/run-command.js"); await import("./dist/runner/run-experiment.js"); console.log(process.listeners("SIGINT").length, process.listeners("SIGTERM").length);';
    const result = spawnSync(process.execPath, ["--input-type=module", "-e", script], { encoding: "utf8" });
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe("0 0\n");
  });
});
