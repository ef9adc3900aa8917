import { spawnSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { describe, expect, it } from "vitest";
import { temporaryFolder } from "../helpers.js";

/** The slurm and check commands' refusals, as a user meets them: each a process of its own (so in the e2e tier). */
describe("slurm and check on the command line", () => {
  it("refuse what cannot work, in one line, with exit code 2", () => {
    const cwd = temporaryFolder();
    const cli = (args: string[]) => spawnSync(process.execPath, [resolve("dist/cli/main.js"), ...args], { cwd, encoding: "utf8", env: { ...process.env, PATH: "/nonexistent" } });
    const quick = resolve("experiments/quick.json");
    for (const [args, message] of [
      [["slurm", quick, "--shards", "0"], "Error: --shards 0: must be a whole number from 1 to 10000000"],
      [["slurm", "-", "--shards", "2"], "Error: slurm needs the experiment as a file (the shards' jobs read it), not standard input"],
      [["slurm", quick, "--shards", "2", "--time", "4 hours"], "Error: --time 4 hours: use letters, digits and _ . : , + - only (it goes into an #SBATCH line)"],
      [["slurm", quick, "--shards", "2", "--out", "."], "Error: --out .: is the working folder or one of its ancestors; results go into a folder of their own (say results/<name>)"],
      [["check", join(cwd, "nowhere")], `Error: ${join(cwd, "nowhere")}: no cluster.json; check reads a work folder written by perceptron-lab slurm`],
    ] as const) {
      const result = cli([...args]);
      expect([args.join(" "), result.stderr.split("\n")[0], result.status]).toEqual([args.join(" "), message, 2]);
    }
    // Written as asked, and told how to submit, watch and rerun.
    const written = cli(["slurm", quick, "--shards", "3", "--out", "merged"]);
    expect(written.status).toBe(0);
    expect(written.stdout).toContain(`Submit:       bash ${join(cwd, "merged-slurm", "submit.sh")}\n`);
    expect(readFileSync(join(cwd, "merged-slurm", "cluster.json"), "utf8")).toContain('"shards": 3');
  });
});
