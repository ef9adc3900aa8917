import { createHash } from "node:crypto";
import { readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { loadExperiment, parseExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";

// The four tables of two sweeps, by digest, recorded on Node 20.20: CI runs this suite on Node 20 and on
// the current LTS, so the same bytes on both engines is checked here, not assumed (README, "Reproducible").
// The data sets themselves are pinned in test/generators/data-version-1.test.ts; a change of the tables'
// format (a new column) changes these digests and is re-recorded with the change, a change of data never.
// History: recorded on Node 20.20 before fdlibmPow, equal after it; re-recorded when the csv generator
// added the `data` column (the tables without that column were checked equal to the earlier ones), and the
// summaries when they gained p10, p25 and p75 (summary.csv without those columns equal to the earlier one).
const TABLES = ["runs.csv", "runs.jsonl", "summary.csv", "summary.json"] as const;

async function tableDigests(loaded: Parameters<typeof runExperiment>[0]): Promise<Record<string, string>> {
  const outDir = temporaryFolder();
  await runExperiment(loaded, { threads: 2, outDir });
  return Object.fromEntries(TABLES.map((file) => [file, createHash("sha256").update(readFileSync(join(outDir, file))).digest("hex").slice(0, 16)]));
}

describe("the tables of data versions 1 and 2, byte for byte", () => {
  it("experiments/quick.json (240 runs; run 200 drew a different data set under Node 24 before fdlibmPow)", async () => {
    expect(await tableDigests(loadExperiment("experiments/quick.json", { overrides: ["dataVersion=1"] }))).toEqual({
      "runs.csv": "f3c5aa368b0ad557",
      "runs.jsonl": "c13aba8584bd49da",
      "summary.csv": "d33aeefb4541895f",
      "summary.json": "43fd54bf40ab888d",
    });
  });

  it("experiments/quick.json at data version 2 (the default)", async () => {
    expect(await tableDigests(loadExperiment("experiments/quick.json"))).toEqual({
      "runs.csv": "b34b469f2fa38cb0",
      "runs.jsonl": "2d16df5652910a3b",
      "summary.csv": "c7ae6467a2f4b5f3",
      "summary.json": "4b2bc9fbddd63c6f",
    });
  });

  it("a sweep over every generator, shuffled orders and random initial weights", async () => {
    const source = {
      name: "golden",
      dataVersion: 1,
      seed: 11,
      repeats: 3,
      grid: [
        { n: 40, d: [3, 7], margin: 0.1, offset: [0, 0.2], init: ["normal:0.5", "uniform:1"], order: ["cyclic", "shuffle"] },
        { generator: "orthonormal", n: 6, bias: false },
        { generator: "hadamard", n: 8, init: ["zero", "normal:1"], order: "shuffle" },
        { generator: "three-point", c: [2, 5] },
      ],
    };
    expect(await tableDigests({ path: "golden.json", experiment: parseExperiment(source, "golden"), source, hash: "0".repeat(64) })).toEqual({
      "runs.csv": "985baf982c479a25",
      "runs.jsonl": "7b8aa78839490f9a",
      "summary.csv": "218bf1cb2201d0c2",
      "summary.json": "2b319dd68c468e47",
    });
  });
});
