import { createHash } from "node:crypto";
import { readFileSync, statSync } from "node:fs";
import { createRequire } from "node:module";
import { registerGenerator } from "../generators/generator-registry.js";
import { defineBound, defineGenerator, type BoundFacts, type BoundPlugin, type GeneratorFacts, type GeneratorPlugin } from "../vocabulary/plugin-definitions.js";
import { registerBound } from "../bounds/plugin-bounds.js";
import { BOUND_KEYS } from "../bounds/bound-choice.js";
import { tableLayout } from "../run/table-layout.js";
import { generatorFacts, pluginGeneratorEntry } from "./plugin-generator-entry.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";

export type { PluginInfo } from "../vocabulary/plugin-info.js";


/** Why a plug-in file cannot be used: the message names the file (as `shown`) and what is wrong. */
export class PluginError extends Error {
  override readonly name = "PluginError";
}

/**
 * Loads the plug-ins a worker thread's sweep uses, from where the experiment loaded them; a file that
 * changed since (its SHA-256) is refused: the thread would draw other data than the manifest says.
 */
export function loadRecordedPlugins(infos: readonly PluginInfo[]): void {
  for (const recorded of infos) {
    loadPluginFile(recorded.path, recorded.path, { sha256: recorded.sha256, changed: (now) => `plug-in ${recorded.path} changed while the sweep ran (sha256 ${recorded.sha256.slice(0, 12)}…, now ${now.slice(0, 12)}…)` });
  }
}

/** What process.exit throws while a plug-in file loads. */
class PluginExit extends Error {
  constructor(readonly code: number | string | null | undefined) {
    super("process.exit called while a plug-in loaded");
  }
}

/** The SHA-256 a plug-in file must still have (a manifest's), and the message if it has not. */
export interface ExpectedPlugin {
  readonly sha256: string;
  readonly changed: (now: string) => string;
}

const requireModule = createRequire(import.meta.url);

/**
 * One plug-in file (`shown`: its path as messages give it): read and hashed (and refused if it is not
 * the `expected` one), its module loaded, every definition it exports checked and registered (generator-registry.ts).
 */
export function loadPluginFile(path: string, shown: string, expected?: ExpectedPlugin): PluginInfo {
  let bytes: Buffer;
  try {
    if (!statSync(path).isFile()) throw new PluginError(`${shown} is not a plug-in file (a JavaScript module)`);
    bytes = readFileSync(path);
  } catch (error) {
    if (error instanceof PluginError) throw error;
    throw new PluginError(`${shown}: cannot read the plug-in (${(error as NodeJS.ErrnoException).code ?? String(error)})`);
  }
  const sha256 = createHash("sha256").update(bytes).digest("hex");
  // Before its code runs or registers: a changed file is refused as such.
  if (expected !== undefined && expected.sha256 !== sha256) throw new PluginError(expected.changed(sha256));
  let exported: unknown;
  // A plug-in that ends the process while it loads (process.exit(0) in its top-level code) would end the
  // command with its exit code and nothing written: a CI job would read success. While its code runs,
  // process.exit throws instead, and the load is refused.
  const exit = process.exit;
  process.exit = ((code?: number | string | null) => {
    throw new PluginExit(code);
  }) as typeof process.exit;
  try {
    // require() loads CommonJS and, on Node ≥ 20.19, an ES module without top-level await: synchronously, as
    // an experiment is loaded. A process loads a file once (a later change is seen by the SHA-256 only).
    exported = requireModule(path);
  } catch (error) {
    if (error instanceof PluginExit) throw new PluginError(`${shown}: the plug-in called process.exit(${error.code ?? ""}) while loading: a plug-in must not end the process; throw an Error instead`);
    throw new PluginError(`${shown}: cannot load the plug-in (${String((error as Error)?.message ?? error).split("\n")[0]})`);
  } finally {
    process.exit = exit;
  }
  const definitions = definitionsOf(exported);
  if (definitions.length === 0) throw new PluginError(`${shown} exports no generator or bound: its default export must be defineGenerator({ … }), defineBound({ … }) or a list of them (docs/plugins.md)`);
  const generators: GeneratorFacts[] = [];
  const bounds: BoundFacts[] = [];
  // A name given twice in one file would register the first and drop the second in silence (same origin).
  const twice = (kind: string, name: string, known: readonly { name: string }[]) => {
    if (known.some((facts) => facts.name === name)) throw new RangeError(`two ${kind}s are named ${name}: give each its own name`);
  };
  for (const definition of definitions) {
    try {
      if ((definition as { kind?: unknown } | null)?.kind === "bound") {
        const plugin = defineBound(definition as BoundPlugin);
        twice("bound", plugin.name, bounds);
        // Not a name of the experiment's `bounds` key (those are the tool's own; their columns too).
        if ((BOUND_KEYS as readonly string[]).includes(plugin.name) || plugin.name === "all" || plugin.name === "default") throw new RangeError(`${plugin.name} is a built-in bound's name`);
        const facts = { name: plugin.name, title: plugin.title };
        tableLayout([facts.name]); // its columns must be new ones
        registerBound(facts, plugin, sha256);
        bounds.push(facts);
      } else {
        const plugin = defineGenerator(definition as GeneratorPlugin);
        twice("generator", plugin.name, generators);
        const facts = generatorFacts(plugin);
        registerGenerator(pluginGeneratorEntry(facts, plugin), sha256, true);
        generators.push(facts);
      }
    } catch (error) {
      throw new PluginError(`${shown}: ${(error as Error).message}`);
    }
  }
  return { path, sha256, generators, ...(bounds.length === 0 ? {} : { bounds }) };
}

/** Registers what a folder's manifest recorded of a plug-in file, without its code (merge plans a sweep, report names its points). */
export function registerRecordedPlugin(info: PluginInfo): void {
  for (const facts of info.generators) registerGenerator(pluginGeneratorEntry(facts, null), info.sha256, false);
  for (const facts of info.bounds ?? []) registerBound(facts, null, info.sha256);
}

/** A module's definitions: its default export (CommonJS: module.exports, or its `default`), one or a list. */
function definitionsOf(exported: unknown): unknown[] {
  const namespace = Object.prototype.toString.call(exported) === "[object Module]";
  const value = namespace || (exported !== null && typeof exported === "object" && "default" in exported) ? (exported as { default?: unknown }).default : exported;
  if (value === undefined || value === null) return [];
  return Array.isArray(value) ? value : [value];
}
