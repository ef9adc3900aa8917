import { csvGenerator } from "./csv.js";
import type { GeneratorEntry } from "./generator-entry.js";
import { hadamardGenerator } from "./hadamard.js";
import { orthonormalGenerator } from "./orthonormal.js";
import { plantedGenerator } from "./planted.js";
import { threePointGenerator } from "./three-point.js";

/**
 * Every generator's name, in the order the schema lists them (the first is a grid's default), and its entry:
 * the one place that knows them all. A new generator is a module that declares its GeneratorEntry, and its
 * name and entry here. (The names are spelled here as well as in the entries so that their type does not
 * depend on the entries, whose methods take points typed by these names.)
 */
export const GENERATORS = ["planted", "orthonormal", "hadamard", "three-point", "csv"] as const;
export type GeneratorName = (typeof GENERATORS)[number];

const ENTRIES: Readonly<Record<GeneratorName, GeneratorEntry>> = {
  planted: plantedGenerator,
  orthonormal: orthonormalGenerator,
  hadamard: hadamardGenerator,
  "three-point": threePointGenerator,
  csv: csvGenerator,
};

/** Every entry, in the order of GENERATORS. */
export const GENERATOR_ENTRIES: readonly GeneratorEntry[] = GENERATORS.map((name) => ENTRIES[name]);

/** The generator of a grid that names none: the first. */
export const DEFAULT_GENERATOR: GeneratorName = GENERATORS[0];

/** A generator's entry; throws for a name no entry has (the schema keeps those out). */
export function generatorEntry(name: string): GeneratorEntry {
  const entry = Object.hasOwn(ENTRIES, name) ? ENTRIES[name as GeneratorName] : undefined;
  if (entry === undefined) throw new RangeError(`no generator named ${JSON.stringify(name)}`);
  return entry;
}
