import { isAbsolute, resolve } from "node:path";
import { InputError } from "../vocabulary/input-error.js";
import { optionsText } from "../vocabulary/option-words.js";
import { displayPath } from "../files/display-path.js";
import { loadPluginFile, PluginError, registerRecordedPlugin, type PluginInfo } from "./plugin-file.js";

export type { PluginInfo };

export interface PluginLoad {
  /** Where the experiment file lies: relative paths start there. */
  readonly folder: string;
  /** Where each name was written (`plugins[1]`), for the one-line errors. */
  readonly where: (name: string) => string;
  /** The plug-ins as a manifest recorded them: each is loaded from its recorded path and refused if it changed (resume, rerun). */
  readonly recorded?: Readonly<Record<string, PluginInfo>>;
  /** With `recorded`: register what they recorded, loading no file (merge plans the sweep only). */
  readonly recordedOnly?: boolean;
}

/**
 * Loads an experiment's plug-in files (docs/plugins.md) and registers what they define, so that the
 * experiment's grids may name it: by name as written, what the manifest records of each. Every failure
 * is an InputError of one line naming the file.
 */
export function loadPlugins(names: readonly string[], load: PluginLoad): Record<string, PluginInfo> {
  const infos: Record<string, PluginInfo> = {};
  for (const name of names) {
    if (Object.hasOwn(infos, name)) continue;
    const recorded = load.recorded?.[name];
    try {
      if (load.recordedOnly === true) {
        if (recorded === undefined) throw new InputError(`${name} is not among the manifest's plug-ins`);
        registerRecordedPlugin(recorded);
        infos[name] = recorded;
        continue;
      }
      // A manifest's experiment loads its plug-ins where they were first loaded (rerun, from any folder).
      const path = recorded?.path ?? (isAbsolute(name) ? name : resolve(load.folder, name));
      const changed = (now: string) =>
        `plug-in ${name} changed since the sweep was run (sha256 ${recorded!.sha256.slice(0, 12)}…, now ${now.slice(0, 12)}…): its runs cannot be reused; restore the file, or start over with ${optionsText("overwrite")}`;
      infos[name] = loadPluginFile(path, displayPath(path), recorded === undefined ? undefined : { sha256: recorded.sha256, changed });
    } catch (error) {
      if (error instanceof InputError || error instanceof PluginError || error instanceof RangeError) throw new InputError(`${load.where(name)}: ${error.message}`);
      throw error;
    }
  }
  return infos;
}

/** Refuses plug-in files whose bytes changed since `recorded` was written (resume: the recorded runs drew with the old code). */
export function checkPluginsUnchanged(recorded: Readonly<Record<string, PluginInfo>> | undefined, now: Readonly<Record<string, PluginInfo>> | undefined, what: string): void {
  for (const [name, info] of Object.entries(recorded ?? {})) {
    const current = now?.[name];
    if (current === undefined) continue; // no longer named: the experiment changed, which the hash check sees
    if (current.sha256 !== info.sha256) {
      throw new InputError(
        `${what}: plug-in ${name} changed since the sweep was run (sha256 ${info.sha256.slice(0, 12)}…, now ${current.sha256.slice(0, 12)}…): its runs cannot be reused; restore the file, or start over with ${optionsText("overwrite")}`,
      );
    }
  }
}
