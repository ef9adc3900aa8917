/**
 * perceptron-lab as a library: what the command line does, for scripts and notebooks. Every function
 * throws typed errors (InputError for a mistake in what it was given, WriteError for a write the system
 * refused) and never exits the process. The mathematics is docs/theory.md's; the tables and their columns are
 * docs/outputs.md's.
 *
 * ```js
 * import { experimentFromObject, runExperiment, readResultFolder } from "perceptron-lab";
 * const loaded = experimentFromObject({ name: "mine", repeats: 20, grid: { n: 100, d: 5, margin: [0.05, 0.1] } });
 * const report = await runExperiment(loaded, { outDir: "results/mine", onProgress: (done, total) => {} });
 * for (const row of readResultFolder("results/mine").runs()) console.log(row.updates, row.bestBound);
 * ```
 */

// Experiments: from a file or an object, validated.
export { loadExperiment, experimentFromText, parseExperiment, type LoadedExperiment, type LoadOptions } from "./experiment/load-experiment.js";
export { experimentFromObject } from "./experiment/experiment-from-object.js";
export { applyOverrides } from "./experiment/apply-overrides.js";
export type { Experiment, Grid, DataFileInfo } from "./experiment/experiment.js";
export { describePlan, type PlanDescription } from "./sweep/describe-plan.js";
export { BOUND_KEYS, BOUND_ENTRIES, boundModes, resolveBounds, describeBounds, type BoundKey, type BoundsDeclaration, type BoundMode, type BoundModes, type BoundEntry } from "./bounds/bound-choice.js";
export { DATA_VERSIONS, LATEST_DATA_VERSION, type DataVersion } from "./random/data-version.js";
export type { Shard } from "./sweep/shard.js";
export { InputError } from "./vocabulary/input-error.js";

// Plug-ins: generators and bounds of your own, in modules that an experiment's `plugins` names (docs/plugins.md).
export {
  defineGenerator,
  defineBound,
  PLUGIN_KEYS,
  type GeneratorPlugin,
  type GeneratorFacts,
  type PluginParameters,
  type PluginDraws,
  type PluginData,
  type PluginKey,
  type BoundPlugin,
  type BoundFacts,
  type BoundContext,
  type Interval,
} from "./plugins/plugin-api.js";
export type { PluginInfo } from "./plugins/plugin-file.js";

// Sweeps: run (with progress, an AbortSignal, resume, shards), merge shards, rerun, compare, report.
export { runExperiment, type RunExperimentOptions, type RunReport, type RunCounts, type RunOutcome } from "./runner/run-experiment.js";
export { mergeShards } from "./runner/merge-shards.js";
export { rerunExperiment, type RerunReport } from "./runner/rerun-experiment.js";
export { compareResults, type CompareOptions, type CompareReport, type RuleOutcome } from "./compare/compare-results.js";
export { parseFailRule, DEFAULT_FAIL_RULES, type FailRule } from "./compare/fail-rule.js";
export type { Correction } from "./compare/adjust-p.js";
export { compareMarkdown } from "./compare/compare-markdown.js";
export { writeReport } from "./report/write-report.js";
export { WriteError } from "./files/write-error.js";

// Clusters: a Slurm job array of a sweep's shards and its merge job, and the state of its shards.
export { writeSlurmJob, type SlurmJob, type SlurmJobOptions } from "./cluster/write-slurm-job.js";
export { checkShards, type ShardsCheck, type ShardCheck, type ShardState } from "./cluster/check-shards.js";
export type { ClusterLayout } from "./cluster/cluster-layout.js";

// Result folders.
export { readResultFolder, type ResultFolder } from "./runner/read-result-folder.js";
export { writeRunsParquet } from "./runner/write-runs-parquet.js";
export type { Manifest } from "./runner/manifest.js";
export type { RunRow, RunSpec, PointParameters, OptimalStatus } from "./run/run-types.js";
export type { SummaryRow, Statistics } from "./run/summary-types.js";

// One data set: your own (CSV), or one the generators make; the perceptron and every bound on it.
export { readDataCsv, parseDataCsv, parseDataCsvSync, type CsvDataSet } from "./experiment/read-data-csv.js";
export type { DataSet } from "./vocabulary/data-set.js";
export { fitDataSet, type FitReport } from "./run/fit-data-set.js";
export type { LearnerOptions } from "./run/analyse-data-set.js";
export { parseInit, type InitSpec } from "./perceptron/initial-weights.js";
export { trainPerceptron, type PerceptronOptions, type PerceptronResult, type PresentationOrder } from "./perceptron/perceptron.js";
export { runPerceptron } from "./perceptron/perceptron-kernel.js";
export { generateData, type DataSets } from "./generators/generate-data.js";
export { fdlibmPow } from "./math/fdlibm-pow.js";
export { fdlibmLog } from "./math/fdlibm-log.js";
export { createRandom } from "./random/seeded-random.js";
export { executeRun } from "./run/execute-run.js";
export { computeBounds, type BoundSet, type SeparatorBounds, type WantedBounds } from "./bounds/convergence-bounds.js";
export { BOUND_NAMES } from "./bounds/bound-columns.js";
export { SEPARATOR_BOUNDS, type SeparatorBoundName } from "./bounds/separator/separator-bounds.js";
export type { SeparatorBound, SeparatorContext } from "./bounds/separator/separator-bound.js";
export { mistakeSetBound } from "./bounds/mistake-set.js";
export { proofFactors, type ProofFactors } from "./bounds/proof-factors.js";
export { updateRounds, type UpdateRounds } from "./bounds/update-rounds.js";
export { maxMarginSeparator, type MaxMarginResult } from "./bounds/max-margin-separator.js";
export { freundSchapireBound, freundSchapireAlong, type FreundSchapire } from "./bounds/freund-schapire.js";
export { worstOrder, updatesFrom, DEFAULT_WORST_ORDER_BUDGET, type WorstOrder, type WorstOrderOptions } from "./bounds/worst-order.js";
export { tightestFreundSchapire } from "./bounds/squared-hinge-path.js";
export { tightestSeparators, type TightestSeparators, type TightestSeparator } from "./bounds/tightest-separators.js";
export { runSeparators, type RunSeparators } from "./run/run-separators.js";
export { toLearnerCoordinates, type LearnerData } from "./perceptron/learner-coordinates.js";
