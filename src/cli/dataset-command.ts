import { existsSync } from "node:fs";
import { join } from "node:path";
import type { Argv } from "yargs";
import { dataSetCsv } from "../dataset/data-csv.js";
import { replayCommand } from "../dataset/replay-command.js";
import { InputError } from "../vocabulary/input-error.js";
import { loadExperiment, type LoadedExperiment } from "../experiment/load-experiment.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { readManifest } from "../runner/manifest.js";
import { recordedExperiment } from "../runner/recorded-experiment.js";
import { writeFileAtomic } from "../files/atomic-file.js";
import { generateData } from "../generators/generate-data.js";
import { createDraws } from "../random/random-draws.js";
import { runSeparators } from "../run/run-separators.js";
import { findRun } from "../sweep/find-run.js";
import { EXIT } from "./cli-error.js";
import { experimentPath, wholeNumberFlag } from "./shared-options.js";

export function datasetBuilder(yargs: Argv) {
  return yargs
    .positional("experiment", { type: "string", describe: "Experiment file (JSON or YAML), or a result folder (its manifest's experiment: run, --shard or merge)", demandOption: true })
    .option("run", { type: "number", describe: "The run's index (the run column of runs.csv, from 0)", demandOption: true })
    .option("out", { type: "string", describe: "CSV file to write", defaultDescription: "stdout" })
    .option("separators", {
      type: "string",
      describe: "Also write the run's separators (planted, max-margin, tightest Hu and N(v), tightest Freund–Schapire) with their margins and bounds to this JSON file",
    });
}

/** An experiment file, or the experiment a result folder's manifest records. */
function loadedExperimentOf(given: string): LoadedExperiment {
  if (existsSync(join(given, OUTPUT_FILES.manifest))) return recordedExperiment(given, readManifest(given, "dataset needs a result folder's manifest"));
  return loadExperiment(experimentPath(given));
}

export function datasetHandler(argv: { experiment: string; run: number; out?: string; separators?: string }): number {
  const index = wholeNumberFlag("run", argv.run, 0, Number.MAX_SAFE_INTEGER);
  const { experiment, dataSets } = loadedExperimentOf(argv.experiment);
  const spec = findRun(experiment, index);
  if (argv.separators !== undefined && argv.separators.trim() === "") throw new InputError("--separators is empty: name the JSON file");
  const data = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), dataSets);
  const csv = dataSetCsv(data);
  if (argv.out === undefined) process.stdout.write(csv);
  else if (argv.out.trim() === "") throw new InputError("--out is empty: name the CSV file (an unset variable in a script?)");
  // Replaced whole (a temporary file beside it, renamed), each write checked: never a truncated data set.
  else writeFileAtomic(argv.out, csv);
  if (argv.separators !== undefined) writeFileAtomic(argv.separators, `${JSON.stringify(runSeparators(spec, data), null, 2)}\n`);
  const replay = replayCommand(spec, data, argv.out ?? "<file>");
  process.stderr.write(`run ${spec.run}: ${spec.generator} n=${spec.n} d=${spec.d}, seed ${spec.seed}. Replay it with:\n  ${replay}\n`);
  return EXIT.ok;
}
