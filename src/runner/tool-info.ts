import { execFileSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";

/** The package root: two levels above this module, in src/ and in dist/ alike. */
export const PACKAGE_ROOT = join(dirname(fileURLToPath(import.meta.url)), "..", "..");

/**
 * The command line as the package's bin runs it: the bundle `npm run build` makes of dist/cli/main.js and what
 * it imports (scripts/bundle-cli.mjs), which starts from a few files instead of ~300. What a Slurm task runs.
 */
export const CLI_BIN = join(PACKAGE_ROOT, "dist", "cli", "perceptron-lab.mjs");

export interface ToolInfo {
  readonly name: string;
  readonly version: string;
  /** The checkout's commit, or null outside a git checkout. */
  readonly git: { readonly commit: string; readonly dirty: boolean } | null;
  readonly node: string;
  readonly platform: string;
}

/** This package's name and version, from its own package.json (not the one of the project that uses it). */
export function toolVersion(): { readonly name: string; readonly version: string } {
  const { name, version } = JSON.parse(readFileSync(join(PACKAGE_ROOT, "package.json"), "utf8")) as { name: string; version: string };
  return { name, version };
}

export function toolInfo(): ToolInfo {
  const { name, version } = toolVersion();
  return {
    name,
    version,
    git: gitState(),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
  };
}

/**
 * The checkout's state, asked of git once a process, in one command (each git process costs its parent ~40 ms of
 * CPU to start; a test process writes ~150 manifests, a fault-injection tier starts ~500 runs).
 */
let knownGitState: ToolInfo["git"] | undefined;

function gitState(): ToolInfo["git"] {
  return (knownGitState ??= askGit());
}

function askGit(): ToolInfo["git"] {
  // An installed package (a cluster's shards run one) has no .git of its own: no git process is started for it.
  // Where PACKAGE_ROOT holds a .git, it is the top of its own checkout, not a dependency inside another project's.
  if (!existsSync(join(PACKAGE_ROOT, ".git"))) return null;
  try {
    // "# branch.oid <commit>" (or "(initial)" before the first commit), then a line a changed tracked file.
    const status = execFileSync("git", ["status", "--porcelain=v2", "--branch", "--untracked-files=no"], {
      cwd: PACKAGE_ROOT,
      encoding: "utf8",
      stdio: ["ignore", "pipe", "ignore"],
    });
    const commit = /^# branch\.oid ([0-9a-f]{40,64})$/m.exec(status)?.[1];
    if (commit === undefined) return null;
    return { commit, dirty: status.split("\n").some((line) => line !== "" && !line.startsWith("#")) };
  } catch {
    return null;
  }
}
