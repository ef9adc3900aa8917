import type { Argv } from "yargs";
import { dataSetCsv } from "../dataset/data-csv.js";
import { replayCommand } from "../dataset/replay-command.js";
import { InputError } from "../experiment/input-error.js";
import { loadExperiment } from "../experiment/load-experiment.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { generateData } from "../generators/generate-data.js";
import { createRandom } from "../random/seeded-random.js";
import { findRun } from "../sweep/find-run.js";
import { EXIT } from "./cli-error.js";
import { experimentPath, wholeNumberFlag } from "./shared-options.js";

export function datasetBuilder(yargs: Argv) {
  return yargs
    .positional("experiment", { type: "string", describe: "Experiment file (JSON)", demandOption: true })
    .option("run", { type: "number", describe: "The run's index (the run column of runs.csv, from 0)", demandOption: true })
    .option("out", { type: "string", describe: "CSV file to write", defaultDescription: "stdout" });
}

export function datasetHandler(argv: { experiment: string; run: number; out?: string }): number {
  const index = wholeNumberFlag("run", argv.run, 0, Number.MAX_SAFE_INTEGER);
  const { experiment } = loadExperiment(experimentPath(argv.experiment));
  const spec = findRun(experiment, index);
  const data = generateData(spec, createRandom(spec.seed, "data"));
  const csv = dataSetCsv(data);
  if (argv.out === undefined) process.stdout.write(csv);
  else if (argv.out.trim() === "") throw new InputError("--out is empty: name the CSV file (an unset variable in a script?)");
  // Replaced whole (a temporary file beside it, renamed), each write checked: never a truncated data set.
  else writeFileAtomic(argv.out, csv);
  const replay = replayCommand(spec, data, argv.out ?? "<file>");
  process.stderr.write(`run ${spec.run}: ${spec.generator} n=${spec.n} d=${spec.d}, seed ${spec.seed}. Replay it with:\n  ${replay}\n`);
  return EXIT.ok;
}
