import { csvGenerator } from "./csv.js";
import type { GeneratorEntry } from "./generator-entry.js";
import { hadamardGenerator } from "./hadamard.js";
import { orthonormalGenerator } from "./orthonormal.js";
import { plantedGenerator } from "./planted.js";
import { threePointGenerator } from "./three-point.js";
import { plotFiles } from "../vocabulary/result-files.js";

/**
 * Every generator's name, in the order the schema lists them (the first is a grid's default), and its entry:
 * the one place that knows them all. A new generator is a module that declares its GeneratorEntry, and its
 * name and entry here. (The names are spelled here as well as in the entries so that their type does not
 * depend on the entries, whose methods take points typed by these names.)
 */
export const GENERATORS = ["planted", "orthonormal", "hadamard", "three-point", "csv"] as const;
export type BuiltInGenerator = (typeof GENERATORS)[number];
/** A generator's name: a built-in one, or a plug-in's (docs/plugins.md), registered when its experiment is loaded. */
export type GeneratorName = BuiltInGenerator | (string & {});

const ENTRIES: Readonly<Record<BuiltInGenerator, GeneratorEntry>> = {
  planted: plantedGenerator,
  orthonormal: orthonormalGenerator,
  hadamard: hadamardGenerator,
  "three-point": threePointGenerator,
  csv: csvGenerator,
};

/** Every entry, in the order of GENERATORS. */
export const GENERATOR_ENTRIES: readonly GeneratorEntry[] = GENERATORS.map((name) => ENTRIES[name]);

/** The files of the generators' own plots (GeneratorEntry.familyPlot) under plots/: what --overwrite may clear there. */
export function generatorPlotFiles(): string[] {
  return GENERATOR_ENTRIES.flatMap((entry) => (entry.familyPlot === undefined ? [] : plotFiles(entry.familyPlot.name)));
}

/** The generator of a grid that names none: the first. */
export const DEFAULT_GENERATOR: BuiltInGenerator = GENERATORS[0];

/**
 * The plug-in generators this thread knows (src/plugins: an experiment's `plugins`, loaded with it, or a
 * folder's recorded facts), by name, with where each came from (its file's SHA-256).
 */
const PLUGINS = new Map<string, { readonly entry: GeneratorEntry; readonly origin: string; readonly live: boolean }>();

/**
 * Adds a plug-in generator. `live`: with its code (it generates); otherwise from a folder's recorded facts
 * (it plans and names points only), which a live entry of the same origin replaces. Throws for a built-in
 * name, or a name another file already took.
 */
export function registerGenerator(entry: GeneratorEntry, origin: string, live: boolean): void {
  if (Object.hasOwn(ENTRIES, entry.name)) throw new RangeError(`${entry.name} is a built-in generator's name`);
  const known = PLUGINS.get(entry.name);
  if (known !== undefined && known.origin !== origin) throw new RangeError(`a generator named ${entry.name} was loaded from another plug-in file, or from this one before it changed (a process loads a plug-in once: start a new one to load a changed file)`);
  if (known === undefined || (live && !known.live)) PLUGINS.set(entry.name, { entry, origin, live });
}

/** A generator's entry, or undefined for a name neither built in nor registered. */
export function findGenerator(name: string): GeneratorEntry | undefined {
  return Object.hasOwn(ENTRIES, name) ? ENTRIES[name as BuiltInGenerator] : PLUGINS.get(name)?.entry;
}

/** A generator's entry; throws for a name no entry has (the experiment's loader keeps those out). */
export function generatorEntry(name: string): GeneratorEntry {
  const entry = findGenerator(name);
  if (entry === undefined) throw new RangeError(`no generator named ${JSON.stringify(name)}`);
  return entry;
}

/**
 * A generator's family in the report (generator-entry.ts, plotFamily): a plug-in's is "data", loaded here or
 * not (report and compare read a folder without its plug-ins' code), so the report is the same either way.
 */
export function plotFamilyOf(name: string): GeneratorEntry["plotFamily"] {
  return findGenerator(name)?.plotFamily ?? "data";
}
