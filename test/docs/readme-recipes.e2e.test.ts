import { spawnSync } from "node:child_process";
import { chmodSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/**
 * The README's recipes ("run in order, each works") and docs/library.md's snippet, executed exactly as they are
 * printed, line by line in order, in an empty folder: `npx perceptron-lab` is this build's command line, the
 * library is this package, and every Slurm command a stand-in that answers nothing (no cluster is reached).
 */
const ROOT = process.cwd();

/** The code blocks of a Markdown text between two headings, with their language ("" for a plain block). */
function blocksBetween(text: string, from: string, to: string): { language: string; body: string }[] {
  const section = text.slice(text.indexOf(from), text.indexOf(to));
  return [...section.matchAll(/^```(\w*)\n([\s\S]*?)^```$/gm)].map((match) => ({ language: match[1]!, body: match[2]! }));
}

/** A folder where the recipes run: npx and Slurm's commands as stand-ins, and perceptron-lab as a dependency. */
function recipeFolder(): { work: string; env: NodeJS.ProcessEnv } {
  const work = temporaryFolder();
  const bin = join(work, ".bin");
  mkdirSync(bin);
  writeFileSync(join(bin, "npx"), `#!/bin/sh\nif [ "$1" = perceptron-lab ]; then shift; exec "${process.execPath}" "${join(ROOT, "dist/cli/perceptron-lab.mjs")}" "$@"; fi\necho "npx $* is not a recipe's" >&2\nexit 97\n`);
  for (const command of ["sinfo", "squeue", "sbatch", "scancel", "scontrol", "sacct"]) writeFileSync(join(bin, command), "#!/bin/sh\nexit 1\n");
  for (const command of ["npx", "sinfo", "squeue", "sbatch", "scancel", "scontrol", "sacct"]) chmodSync(join(bin, command), 0o755);
  mkdirSync(join(work, "node_modules"));
  symlinkSync(ROOT, join(work, "node_modules", "perceptron-lab"));
  return { work, env: { ...process.env, PATH: `${bin}:${process.env.PATH}` } };
}

function runLine(line: string, work: string, env: NodeJS.ProcessEnv) {
  const result = spawnSync("bash", ["-e", "-o", "pipefail", "-c", line], { cwd: work, env, encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
  return { line, code: result.status, stderr: result.stderr.split("\n").filter((text) => text.startsWith("Error")).join("\n") };
}

describe("the README's recipes and the library snippets, as printed", () => {
  it("run in order in an empty folder, every line with exit code 0", () => {
    const readme = readFileSync("README.md", "utf8");
    const blocks = blocksBetween(readme, "## Recipes", "## What it writes");
    // A line that ends in a backslash goes on on the next, as the shell reads it.
    const shell = blocks.filter((block) => block.language === "").flatMap((block) => block.body.replace(/\\\n/g, "").split("\n").filter((line) => line.trim() !== ""));
    const scripts = blocks.filter((block) => block.language === "js");
    expect(shell.length).toBeGreaterThanOrEqual(15);
    expect(scripts.length).toBe(1);
    const { work, env } = recipeFolder();
    // A line whose comment says "exit N until …" (check, while shards are missing) exits N; every other one 0.
    for (const line of shell) expect(runLine(line, work, env)).toEqual({ line, code: Number(/\(exit (\d) until/.exec(line)?.[1] ?? 0), stderr: "" });
    // What the recipes promise to leave: the merged sweep, the Slurm job, the gate's baseline, the data set.
    expect(readFileSync(join(work, "results/margins-merged/manifest.json"), "utf8")).toContain('"status": "complete"');
    expect(readFileSync(join(work, "run17.csv"), "utf8").split("\n")[0]).toContain("label");
    writeFileSync(join(work, "readme.mjs"), scripts[0]!.body);
    expect(runLine("node readme.mjs > /dev/null", work, env)).toEqual({ line: "node readme.mjs > /dev/null", code: 0, stderr: "" });
  });

  it("docs/library.md's snippet runs as it is, in an empty folder", () => {
    const library = readFileSync("docs/library.md", "utf8");
    const snippet = /^```js\n([\s\S]*?)^```$/m.exec(library)![1]!;
    const { work, env } = recipeFolder();
    writeFileSync(join(work, "library.mjs"), snippet);
    const result = spawnSync(process.execPath, ["library.mjs"], { cwd: work, env, encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL" });
    expect({ code: result.status, stderr: result.stderr.split("\n").filter((line) => /Error/.test(line)) }).toEqual({ code: 0, stderr: [] });
    expect(result.stdout.trim().split("\n").at(-1)).toBe("pass");
  });
});
