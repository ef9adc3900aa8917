import { createHash } from "node:crypto";
import { displayPath } from "../files/display-path.js";
import { readFileSync, statSync } from "node:fs";
import { isAbsolute, relative, resolve } from "node:path";
import { parseDataCsvSync } from "./read-data-csv.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { DataFileInfo } from "./experiment.js";
import { InputError } from "../vocabulary/input-error.js";
import { optionsText } from "../vocabulary/option-words.js";

/** The csv generator's data files of an experiment: what the manifest records, and the data themselves. */
export interface DataFiles {
  readonly infos: Readonly<Record<string, DataFileInfo>>;
  readonly dataSets: ReadonlyMap<string, DataSet>;
}

/**
 * Reads each named data file (a path relative to `folder`, the experiment file's folder), by fit's CSV
 * rules, and hashes its bytes. `where(name)` says where the name was written (`grid.data[1]`), for the
 * one-line error of a file that cannot be read or breaks a rule.
 */
export function readDataFiles(names: Iterable<string>, folder: string, where: (name: string) => string, recorded?: Readonly<Record<string, DataFileInfo>>): DataFiles {
  const infos: Record<string, DataFileInfo> = {};
  const dataSets = new Map<string, DataSet>();
  for (const name of names) {
    if (dataSets.has(name)) continue;
    // A manifest's experiment reads its files where they were first read (rerun, from any folder).
    const path = recorded?.[name]?.path ?? (isAbsolute(name) ? name : resolve(folder, name));
    const shown = displayPath(path);
    let bytes: Buffer;
    try {
      const stats = statSync(path);
      if (stats.isDirectory()) throw new InputError(`${where(name)}: ${shown} is a folder, not a data file (a CSV with a header row)`);
      if (!stats.isFile()) throw new InputError(`${where(name)}: ${shown} is not a regular file (a pipe, a device or a socket): give the data as a file`);
      bytes = readFileSync(path);
    } catch (error) {
      if (error instanceof InputError) throw error;
      throw new InputError(`${where(name)}: ${shown}: cannot read the data file (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
    }
    let data: DataSet;
    try {
      data = parseDataCsvSync(bytes.toString("utf8"), shown);
    } catch (error) {
      if (error instanceof InputError) throw new InputError(`${where(name)}: ${error.message}`);
      throw error;
    }
    infos[name] = { path, sha256: createHash("sha256").update(bytes).digest("hex"), n: data.n, d: data.d };
    dataSets.set(name, data);
  }
  return { infos, dataSets };
}

/**
 * The data sets of an experiment's data files, read again from where the experiment read them, each
 * checked against its recorded SHA-256 (for an experiment that was not loaded from its file here).
 */
export function readRecordedDataSets(infos: Readonly<Record<string, DataFileInfo>>, what: string): ReadonlyMap<string, DataSet> {
  const names = Object.keys(infos);
  if (names.length === 0) return new Map();
  const files = readDataFiles(names, process.cwd(), (name) => `${what}: data file ${name}`, infos);
  checkDataFilesUnchanged(infos, files.infos, what);
  return files.dataSets;
}

/** Refuses data files whose bytes changed since `recorded` was written (resume, rerun). */
export function checkDataFilesUnchanged(recorded: Readonly<Record<string, DataFileInfo>> | undefined, now: Readonly<Record<string, DataFileInfo>>, what: string): void {
  for (const [name, info] of Object.entries(recorded ?? {})) {
    const current = now[name];
    if (current === undefined) continue; // no longer named: the experiment changed, which the hash check sees
    if (current.sha256 !== info.sha256) {
      throw new InputError(
        `${what}: data file ${name} changed since the sweep was run (sha256 ${info.sha256.slice(0, 12)}…, now ${current.sha256.slice(0, 12)}…): its runs cannot be reused; restore the file, or start over with ${optionsText("overwrite")}`,
      );
    }
  }
}

