import { join } from "node:path";
import type { DataSet } from "../vocabulary/data-set.js";
import { parseExperiment, type LoadedExperiment } from "../experiment/load-experiment.js";
import { checkDataFilesUnchanged } from "../experiment/read-data-files.js";
import { OUTPUT_FILES } from "../export/result-writer.js";
import { recordedBounds } from "../bounds/bound-choice.js";
import { recordedDataVersion, type Manifest } from "./manifest.js";

/**
 * The experiment a result folder's manifest records (its contents as run, `--set` overrides applied, not
 * the file on disk, which may have changed), with the csv generator's data read again from where the
 * sweep read them and refused if their bytes changed.
 */
export function recordedExperiment(folder: string, manifest: Manifest): LoadedExperiment {
  const { source, hash, name, path, overrides } = manifest.experiment;
  const dataSets = new Map<string, DataSet>();
  const experiment = parseExperiment(withRecordedDefaults(manifest), name, `${join(folder, OUTPUT_FILES.manifest)} (experiment)`, { recorded: manifest.resolved.dataFiles ?? {}, dataSets, ...(manifest.resolved.plugins === undefined ? {} : { recordedPlugins: manifest.resolved.plugins }) });
  checkDataFilesUnchanged(manifest.resolved.dataFiles, experiment.dataFiles, folder);
  return { path, experiment, source, hash, ...(overrides ? { overrides } : {}), ...(dataSets.size === 0 ? {} : { dataSets }) };
}

/**
 * A manifest's experiment source with its data version and its bounds made explicit: a source that does not
 * pin them ran with the defaults of the tool that wrote it (the manifest's resolved dataVersion and bounds;
 * version 1 for tools before data versions, every bound for tools before the `bounds` key), not with today's.
 */
export function withRecordedDefaults(manifest: Manifest): unknown {
  const source = manifest.experiment.source;
  if (source === null || typeof source !== "object" || Array.isArray(source)) return source;
  return {
    ...source,
    ...("dataVersion" in source ? {} : { dataVersion: recordedDataVersion(manifest) }),
    ...("bounds" in source ? {} : { bounds: recordedBounds(manifest.resolved) }),
  };
}
