import { RUN_TABLE_NAMES } from "../vocabulary/result-files.js";
import { createHash } from "node:crypto";
import { basename, dirname, extname, resolve } from "node:path";
import { resolveBounds } from "../bounds/bound-choice.js";
import type { DataSet } from "../vocabulary/data-set.js";
import { LATEST_DATA_VERSION } from "../random/data-version.js";
import { exclusionReason, gridPoints } from "../generators/grid-points.js";
import { EXPERIMENT_DEFAULTS, type DataFileInfo, type Experiment } from "./experiment.js";
import { type Grid } from "../vocabulary/grid.js";
import { experimentSchema, type ExperimentInput, type GridInput } from "./experiment-schema.js";
import { DEFAULT_GENERATOR, GENERATORS, generatorEntry, type BuiltInGenerator, type GeneratorName } from "../generators/generator-registry.js";
import { loadPlugins, type PluginInfo } from "../plugins/load-plugins.js";
import { applyOverrides } from "./apply-overrides.js";
import { experimentFormat, parseExperimentText } from "./experiment-text.js";
import { formatIssue, formatPath, formatValue } from "./format-issue.js";
import { InputError } from "../vocabulary/input-error.js";
import { readInputFile } from "../files/read-input-file.js";
import { readDataFiles } from "./read-data-files.js";
import { formatInit, readInit } from "../perceptron/initial-weights.js";

/** An experiment as read from its file, with what a manifest needs to reproduce it. */
export interface LoadedExperiment {
  /** The file, or `-` for standard input. */
  readonly path: string;
  readonly experiment: Experiment;
  /** The file's parsed content (JSON or YAML) with the overrides applied: what was validated and run. */
  readonly source: unknown;
  /** SHA-256 of the file's bytes, followed by the overrides (`\n--set key=value` each) when there are any. */
  readonly hash: string;
  /** The `--set` overrides, in order (docs/experiments.md, "Overrides"); none when absent. */
  readonly overrides?: readonly string[];
  /** The csv generator's data, read and checked at load (experiment.dataFiles says from where); none without. */
  readonly dataSets?: ReadonlyMap<string, DataSet>;
}

export interface LoadOptions {
  /** Hydra-style overrides (`grid.margin=0.01,0.02`), applied in order before validation. */
  readonly overrides?: readonly string[];
}

export interface ParseOptions {
  /** Where the csv generator's relative data paths start: the experiment file's folder (default: the working folder). */
  readonly dataFolder?: string;
  /** Filled with the data files' data sets as they are read, so that they need not be read again. */
  readonly dataSets?: Map<string, DataSet>;
  /** Data files as a manifest recorded them: each is read from its recorded path (rerun). */
  readonly recorded?: Readonly<Record<string, DataFileInfo>>;
  /** With `recorded`: take the recorded shapes and hashes as they are, reading no file (merge plans the sweep only). */
  readonly recordedOnly?: boolean;
  /** Plug-in files as a manifest recorded them: each is loaded from its recorded path (with recordedOnly: its recorded facts only). */
  readonly recordedPlugins?: Readonly<Record<string, PluginInfo>>;
}

/** Reads, parses and validates an experiment file (JSON, or YAML for .yaml/.yml); every failure is an InputError of one line. */
export function loadExperiment(path: string, options: LoadOptions = {}): LoadedExperiment {
  return experimentFromText(readInputFile(path, "experiment file"), path, options);
}

/**
 * An experiment from its text, as if read from `path` (`-`: standard input, named "standard input" in
 * messages, "stdin" by default; JSON if it opens with `{`, else YAML).
 */
export function experimentFromText(text: string, path: string, options: LoadOptions = {}): LoadedExperiment {
  const overrides = options.overrides ?? [];
  const where = path === "-" ? "standard input" : path;
  const parsed = parseExperimentText(text, where, experimentFormat(path, text));
  const source = overrides.length === 0 ? parsed : applyOverrides(parsed, overrides);
  const context = overrides.length === 0 ? where : `${where} with ${overrides.map((o) => `--set ${o}`).join(" ")}`;
  const dataSets = new Map<string, DataSet>();
  const dataFolder = path === "-" ? process.cwd() : dirname(resolve(path));
  const experiment = parseExperiment(source, path === "-" ? "stdin" : nameFromPath(path), context, { dataFolder, dataSets });
  const hash = createHash("sha256").update(text);
  for (const override of overrides) hash.update(`\n--set ${override}`);
  return { path, experiment, source, hash: hash.digest("hex"), ...(overrides.length === 0 ? {} : { overrides }), ...(dataSets.size === 0 ? {} : { dataSets }) };
}

/**
 * The default name of an experiment (its output folder results/<name>): the file's name without its
 * extension, with anything but letters, digits, '.', '_' and '-' replaced by '_', and never '.' or '..'
 * or empty (a file named `...json` would have sent results to results/..).
 */
export function nameFromPath(path: string): string {
  const name = basename(path, extname(path)).replace(/[^A-Za-z0-9._-]/g, "_");
  return /^\.*$/.test(name) ? `experiment${name.replace(/\./g, "_")}` : name;
}

/** Validates parsed JSON as an experiment; `where` prefixes the messages (a file name). */
export function parseExperiment(source: unknown, fallbackName: string, where = "experiment", options: ParseOptions = {}): Experiment {
  // The schema's validator recurses into what it reads: a pathological nesting would overflow its stack.
  if (depthOf(source) > MAX_DEPTH) throw new InputError(`${where}: nested more than ${MAX_DEPTH} levels deep; an experiment is a few levels deep (grid, lists of values)`);
  const parsed = experimentSchema.safeParse(source, { reportInput: true });
  if (!parsed.success) throw new InputError(`${where}: ${formatIssue(parsed.error.issues[0]!, source)}`);
  try {
    const experiment = resolveExperiment(parsed.data, fallbackName, options);
    checkEveryGridHasAPoint(experiment, Array.isArray(parsed.data.grid));
    return experiment;
  } catch (error) {
    if (error instanceof InputError) throw new InputError(`${where}: ${error.message}`);
    throw error;
  }
}

/** How deep an experiment's JSON may nest; a valid one nests at most 4 levels (a list of grids of lists). */
const MAX_DEPTH = 32;

/** The nesting depth of parsed JSON (a scalar: 0), measured without recursion, stopping past MAX_DEPTH. */
function depthOf(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  while (stack.length > 0) {
    const [item, depth] = stack.pop()!;
    deepest = Math.max(deepest, depth);
    if (deepest > MAX_DEPTH) break;
    if (item !== null && typeof item === "object") for (const child of Object.values(item)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function resolveExperiment(input: ExperimentInput, fallbackName: string, options: ParseOptions): Experiment {
  const grids = Array.isArray(input.grid) ? input.grid : [input.grid];
  const many = Array.isArray(input.grid);
  // The plug-ins first: their generators are registered before the grids name them.
  const pluginNames = list(input.plugins) ?? [];
  const plugins = loadPlugins(pluginNames, {
    folder: options.dataFolder ?? process.cwd(),
    where: (name) => (Array.isArray(input.plugins) ? `plugins[${pluginNames.indexOf(name)}]` : "plugins"),
    ...(options.recordedPlugins === undefined ? {} : { recorded: options.recordedPlugins }),
    ...(options.recordedOnly === true ? { recordedOnly: true } : {}),
  });
  const pluginGenerators = Object.values(plugins).flatMap((info) => info.generators.map((facts) => facts.name));
  const resolvedGrids = grids.map((grid, index) => resolveGrid(grid, many ? `grid[${index}]` : "grid", pluginGenerators));
  // The csv generator's files, read (fit's rules) and hashed now: a mistake in one is an input error
  // before anything runs, and their shapes give the grid points' n and d.
  const written = new Map<string, string>();
  resolvedGrids.forEach((grid, index) => {
    if (!grid.generator.some((name) => generatorEntry(name).keys.includes("data"))) return;
    grid.data!.forEach((name, k) => written.set(name, written.get(name) ?? itemPath(many ? `grid[${index}]` : "grid", "data", k, grids[index]!.data)));
  });
  const files = options.recordedOnly && options.recorded
    ? recordedFiles(options.recorded, written)
    : readDataFiles(written.keys(), options.dataFolder ?? process.cwd(), (name) => written.get(name)!, options.recorded);
  for (const [name, data] of files.dataSets) options.dataSets?.set(name, data);
  return {
    name: input.name ?? fallbackName,
    description: input.description ?? null,
    seed: input.seed ?? EXPERIMENT_DEFAULTS.seed,
    repeats: input.repeats ?? EXPERIMENT_DEFAULTS.repeats,
    maxEpochs: input.maxEpochs ?? EXPERIMENT_DEFAULTS.maxEpochs,
    optimal: input.optimal ?? EXPERIMENT_DEFAULTS.optimal,
    bounds: resolveBounds(input.bounds),
    dataVersion: input.dataVersion ?? LATEST_DATA_VERSION,
    grids: resolvedGrids,
    dataFiles: files.infos,
    ...(input.worstOrderBudget === undefined ? {} : { worstOrderBudget: input.worstOrderBudget }),
    ...(input.tables === undefined ? {} : { tables: RUN_TABLE_NAMES.filter((name) => name === "parquet" || [input.tables].flat().includes(name)) }),
    ...(pluginNames.length === 0 ? {} : { plugins }),
  };
}

/** The recorded data files an experiment names, without reading them; one not recorded is an input error. */
function recordedFiles(recorded: Readonly<Record<string, DataFileInfo>>, written: ReadonlyMap<string, string>): { infos: Record<string, DataFileInfo>; dataSets: Map<string, DataSet> } {
  const infos: Record<string, DataFileInfo> = {};
  for (const [name, where] of written) {
    const info = recorded[name];
    if (info === undefined) throw new InputError(`${where}: ${name} is not among the manifest's data files`);
    infos[name] = info;
  }
  return { infos, dataSets: new Map() };
}

function list<T>(value: T | readonly T[] | undefined): readonly T[] | null {
  if (value === undefined) return null;
  return Array.isArray(value) ? value : [value as T];
}

/** Fills a grid's defaults and checks the rules between its keys that no combination could satisfy. */
function resolveGrid(input: GridInput, where: string, pluginGenerators: readonly string[]): Grid {
  const generator = list(input.generator) ?? [DEFAULT_GENERATOR];
  // The schema lets any plug-in-like name pass: only the built-in ones and the experiment's plug-ins' are generators.
  generator.forEach((name, index) => {
    if (GENERATORS.includes(name as BuiltInGenerator) || pluginGenerators.includes(name)) return;
    const plugins = pluginGenerators.length === 0 ? "" : `, or a generator of the experiment's plugins (${pluginGenerators.join(", ")})`;
    throw new InputError(`${itemPath(where, "generator", index, input.generator)}: ${formatValue(name)} must be one of ${GENERATORS.join(", ")}${plugins}`);
  });
  const grid: Grid = {
    generator,
    data: list(input.data),
    n: list(input.n),
    d: list(input.d),
    margin: list(input.margin),
    radius: list(input.radius) ?? [EXPERIMENT_DEFAULTS.radius],
    offset: list(input.offset) ?? [EXPERIMENT_DEFAULTS.offset],
    // Each generator's own default where not given (generator-entry.ts, keyDefaults).
    noise: list(input.noise),
    overlap: list(input.overlap) ?? [EXPERIMENT_DEFAULTS.overlap],
    c: list(input.c),
    bias: list(input.bias),
    eta: list(input.eta) ?? [EXPERIMENT_DEFAULTS.eta],
    init: list(input.init) ?? [EXPERIMENT_DEFAULTS.init],
    order: list(input.order) ?? [EXPERIMENT_DEFAULTS.order],
  };
  for (const key of Object.keys(grid) as (keyof Grid)[]) {
    const values = grid[key];
    if (values === null) continue;
    const seen = new Map<unknown, unknown>();
    values.forEach((value, index) => {
      // An init is one value however it is written: normal:1 and normal:1.0 are the same ŵ(0) law.
      const same = key === "init" ? canonicalInit(value as string) : value;
      if (seen.has(same)) {
        const at = Array.isArray(input[key]) ? `${where}.${key}[${index}]` : `${where}.${key}`;
        const first = seen.get(same);
        throw new InputError(`${at}: ${formatValue(value)} is listed twice${first === value ? "" : ` (as ${formatValue(first)} before: the same init)`}`);
      }
      seen.set(same, value);
    });
  }
  for (const name of generator) {
    const entry = generatorEntry(name);
    for (const key of entry.required) {
      if (grid[key] === null) throw new InputError(`${where}.${key} is required by the ${name} generator`);
    }
  }
  // A key that no generator of the grid takes would be ignored in silence (noise on a data file's runs): refused.
  for (const key of ["n", "d", "margin", "radius", "offset", "noise", "overlap", "c", "data"] as const) {
    if (input[key] === undefined) continue;
    const takes = (name: GeneratorName) => {
      const entry = generatorEntry(name);
      return key === "n" || key === "d" ? entry.sized : (entry.keys as readonly string[]).includes(key);
    };
    if (generator.some(takes)) continue;
    const names = generator.length > 1 ? `none of the ${generator.join(", ")} generators takes` : `the ${generator[0]} generator does not take`;
    throw new InputError(`${where}.${key}: ${names} ${key}; ${describeTakes(generator)}`);
  }
  // The rules between a generator's keys that no combination could satisfy, in the order of the grid's generators.
  for (const name of generator) {
    const [problem] = generatorEntry(name).gridProblems?.(grid) ?? [];
    if (problem) throw new InputError(`${itemPath(where, problem.key, problem.index, input[problem.key])}: ${problem.message}`);
  }
  return grid;
}

/** What a grid's generators take, for the message refusing a key they do not. */
function describeTakes(generator: readonly GeneratorName[]): string {
  return generator
    .map((name) => {
      const entry = generatorEntry(name);
      const keys = [...(entry.sized ? ["n", "d"] : []), ...entry.keys];
      return `${name} takes ${keys.join(", ")}${entry.sized ? "" : " (n and d come from the file)"}`;
    })
    .join("; ");
}

function itemPath(where: string, key: string, index: number, raw: unknown): string {
  return Array.isArray(raw) ? `${where}.${key}[${index}]` : `${where}.${key}`;
}

function checkEveryGridHasAPoint(experiment: Experiment, many: boolean): void {
  // A grid's first valid point ends its check: the whole product is walked (for the reasons' counts) only
  // where every combination breaks a rule. (Counting a grid of 2.5·10⁷ points took ~18 s here.)
  const empty = experiment.grids.map((grid) => {
    for (const point of gridPoints(grid, experiment.dataFiles)) if (exclusionReason(point) === null) return false;
    return true;
  });
  empty.forEach((none, index) => {
    if (!none) return;
    // Every combination breaks a rule: counted by reason, in the order the reasons first come.
    const reasons = new Map<string, number>();
    for (const point of gridPoints(experiment.grids[index]!, experiment.dataFiles)) {
      const reason = exclusionReason(point)!;
      reasons.set(reason, (reasons.get(reason) ?? 0) + 1);
    }
    const where = formatPath(many ? ["grid", index] : ["grid"]);
    const why = [...reasons].map(([reason, points]) => `${reason} (${points} point${points > 1 ? "s" : ""})`).join("; ");
    throw new InputError(`${where}: no valid grid point, every combination breaks a rule: ${why}`);
  });
}

/** An init's text in one spelling (formatInit's): the schema has checked it reads. */
function canonicalInit(text: string): string {
  const init = readInit(text, true);
  return "error" in init ? text : formatInit(init);
}
