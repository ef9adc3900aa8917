import { describeBounds, recordedBounds } from "../bounds/bound-choice.js";
import { existsSync } from "node:fs";
import { join } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import type { LoadedExperiment } from "../experiment/load-experiment.js";
import { checkDataFilesUnchanged } from "../experiment/read-data-files.js";
import { checkPluginsUnchanged } from "../plugins/load-plugins.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import type { SweepPlan } from "../sweep/plan-sweep.js";
import type { Shard } from "../sweep/shard.js";
import { consolidateRecords, RecordStream, verifyRecords, type RunStream } from "./recorded-runs.js";
import { consolidateJournal, JournalStream, verifyJournal } from "./journal-stream.js";
import { recordedLayout } from "../run/table-layout.js";
import { recordedDataVersion } from "./manifest.js";
import { clearResults, inspectResultFolder, PREVIOUS_JOURNAL, PREVIOUS_RUNS, type FolderState } from "./result-folder.js";
import { journalFromParquet } from "./write-runs-parquet.js";
import { commandLineOr, optionsText } from "../vocabulary/option-words.js";
import type { RunExperimentOptions, RunReport } from "./run-options.js";

/**
 * Before a sweep writes anything: the result folder checked against what was asked (never overwritten in
 * silence, never resumed from another experiment, data version or choice of bounds), what a resume can reuse
 * gathered, and the report of a folder already complete.
 */

export interface Previous {
  readonly path: string;
  /** Its rows, in run order. */
  readonly open: () => RunStream;
  /** maxEpochs and optimal unchanged: recorded rows can be reused where their run matches. */
  readonly settingsMatch: boolean;
}

/**
 * Checks the folder against what was asked, and gathers what a resume can reuse. Refuses, with an
 * InputError and before any file is touched, to overwrite results silently or to resume from another
 * experiment file without --force.
 */
export function prepareFolder(loaded: LoadedExperiment, outDir: string, state: FolderState, options: RunExperimentOptions): Previous | null | "already-complete" {
  if (!state.hasResults) return null;
  if (options.overwrite) {
    clearResults(outDir);
    return null;
  }
  const manifest = state.manifest;
  if (!options.resume) {
    const what =
      manifest === null
        ? "results"
        : `results of ${manifest.experiment.name} (${manifest.status === "complete" ? `${manifest.counts.runs} of ${manifest.counts.runs} runs` : "an unfinished sweep"})`;
    throw new InputError(`${outDir} already holds ${what}: add ${optionsText("resume")} to continue them, or ${optionsText("overwrite")} to replace them`);
  }
  if (!state.hasRecords && manifest?.status !== "complete") {
    // Nothing recorded that a resume could reuse (a kill before the first runs were written, or part way
    // through --overwrite): the sweep starts afresh, whatever experiment the folder was for.
    clearResults(outDir);
    return null;
  }
  if (manifest === null) {
    if (!options.force) throw new InputError(`${outDir} holds results without a manifest.json: ${optionsText("resume", "force")} reuses the runs that match, ${optionsText("overwrite")} starts over`);
  } else if (manifest.experiment.hash !== loaded.hash && !options.force) {
    throw new InputError(
      `${outDir} was made from a different experiment${commandLineOr(" file or --set overrides", "")} (sha256 ${manifest.experiment.hash.slice(0, 12)}…, now ${loaded.hash.slice(0, 12)}…): ` +
        `${optionsText("resume", "force")} reuses the runs that still match it, ${optionsText("overwrite")} starts over`,
    );
  }
  // A changed data file or data version would make the recorded runs wrong however the experiment matches (even with --force).
  if (manifest !== null) {
    checkDataFilesUnchanged(manifest.resolved.dataFiles, loaded.experiment.dataFiles, outDir);
    checkPluginsUnchanged(manifest.resolved.plugins, loaded.experiment.plugins, outDir);
    const recorded = recordedDataVersion(manifest);
    const now = loaded.experiment.dataVersion;
    if (recorded !== now) {
      throw new InputError(
        `${outDir} holds runs of data version ${recorded}, and the experiment now draws with data version ${now}: ` +
          `pin "dataVersion": ${recorded} in the experiment${commandLineOr(` (or --set dataVersion=${recorded})`, "")} to continue them, or ${optionsText("overwrite")} to start over`,
      );
    }
    // A run's empty columns say what the sweep computed: every run of a folder computes the same bounds.
    const recordedChoice = describeBounds(recordedBounds(manifest.resolved));
    const choice = describeBounds(loaded.experiment.bounds);
    if (recordedChoice !== choice) {
      throw new InputError(
        `${outDir} holds runs that computed bounds ${recordedChoice}, and the experiment now computes ${choice}: ` +
          `pin "bounds" to ${recordedChoice} in the experiment${commandLineOr(` (or --set bounds=${recordedChoice === "none" ? "[]" : recordedChoice})`, "")} to continue them, or ${optionsText("overwrite")} to start over`,
      );
    }
  }
  const shardText = (shard: Shard | null | undefined) => (shard ? `shard ${shard.index}/${shard.count}` : "the whole sweep");
  if (manifest !== null && shardText(manifest.shard) !== shardText(options.shard)) {
    throw new InputError(`${outDir} holds ${shardText(manifest.shard)}, not ${shardText(options.shard)}: resume it as it was, or ${optionsText("overwrite")}`);
  }
  if (manifest?.status === "complete" && manifest.experiment.hash === loaded.hash && !(options.retryErrors && manifest.counts.errors > 0)) {
    return "already-complete";
  }
  // Every recorded run checked before anything is rewritten (the records consolidated, the manifest set to
  // running, the summaries begun anew): a record changed by hand is refused in the file the user edited.
  const layout = recordedLayout(manifest ?? { resolved: loaded.experiment });
  const settingsMatch =
    manifest === null || (manifest.resolved.maxEpochs === loaded.experiment.maxEpochs && manifest.resolved.optimal === loaded.experiment.optimal);
  if (state.records === "legacy") {
    // A folder of a version before 0.16: its runs.jsonl was its record, read as it was then.
    for (const file of [OUTPUT_FILES.runsJsonl, PREVIOUS_RUNS]) if (existsSync(join(outDir, file))) verifyRecords(join(outDir, file));
    const path = consolidateRecords(join(outDir, OUTPUT_FILES.runsJsonl), join(outDir, PREVIOUS_RUNS));
    return path === null ? null : { path, settingsMatch, open: () => new RecordStream(path) };
  }
  for (const file of [OUTPUT_FILES.runsJournal, PREVIOUS_JOURNAL]) if (existsSync(join(outDir, file))) verifyJournal(join(outDir, file), layout);
  // A complete folder keeps its runs in runs.parquet: given back as a journal first.
  if (manifest !== null && !state.hasRecords) journalFromParquet(outDir, manifest, join(outDir, PREVIOUS_JOURNAL));
  const path = consolidateJournal(join(outDir, OUTPUT_FILES.runsJournal), join(outDir, PREVIOUS_JOURNAL), layout);
  return path === null ? null : { path, settingsMatch, open: () => new JournalStream(path, layout) };
}

export function alreadyComplete(outDir: string, threads: number, plan: SweepPlan): RunReport {
  const { counts } = inspectResultFolder(outDir).manifest!;
  const empty = { ok: 0, converged: 0, notConverged: 0, errors: counts.errors, violatingRuns: 0 };
  return {
    outcome: "already-complete",
    outDir,
    threads,
    counts: { runs: counts.runs, points: plan.pointCount, recorded: counts.recorded, reused: counts.recorded, ...empty },
    skipped: plan.skipped,
    firstSummaries: [],
    firstViolations: [],
    firstErrors: [],
    violationData: [],
    wallSeconds: 0,
  };
}
