import { existsSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { readDataCsv } from "../../src/experiment/read-data-csv.js";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { parseInit, type InitSpec } from "../../src/perceptron/initial-weights.js";
import { executeRun } from "../../src/run/execute-run.js";
import { fitDataSet } from "../../src/run/fit-data-set.js";
import { findRun } from "../../src/sweep/find-run.js";
import { specOfRow, writeViolationData } from "../../src/runner/write-violation-data.js";
import { temporaryFolder } from "../helpers.js";

describe("writeViolationData", () => {
  it("writes a violating run's data set where fit replays it to the same count", async () => {
    const experiment = parseExperiment({ name: "v", repeats: 3, maxEpochs: 5000, grid: { n: 40, d: 3, margin: 0.1, offset: 0.2, init: "normal:1", order: "shuffle" } }, "v");
    const spec = findRun(experiment, 2);
    const row = { ...executeRun(spec), violations: 1 };
    expect(specOfRow(row, experiment)).toEqual(spec);

    const outDir = temporaryFolder();
    const [record] = writeViolationData(outDir, experiment, [row]);
    expect(record).toMatchObject({ run: 2, seed: spec.seed, data: join("violations", "run-2.csv") });
    expect(existsSync(join(outDir, record!.data))).toBe(true);
    expect(record!.replay).toBe(
      `perceptron-lab fit --data ${join(outDir, "violations", "run-2.csv")} --bias --eta 1 --init normal:1 --order shuffle --seed ${spec.seed} --data-version 3 --max-epochs 5000`,
    );
    const replay = fitDataSet(await readDataCsv(join(outDir, record!.data)), {
      bias: true,
      eta: 1,
      init: parseInit("normal:1") as InitSpec,
      order: "shuffle",
      maxEpochs: 5000,
      seed: spec.seed,
      dataVersion: experiment.dataVersion,
    });
    expect({ updates: replay.updates, epochs: replay.epochs }).toEqual({ updates: row.updates, epochs: row.epochs });
  });

  it("writes nothing when nothing was violated", () => {
    const outDir = temporaryFolder();
    expect(writeViolationData(outDir, parseExperiment({ grid: { n: 3, d: 1, margin: 0.1 } }, "x"), [])).toEqual([]);
    expect(existsSync(join(outDir, "violations"))).toBe(false);
  });
});
