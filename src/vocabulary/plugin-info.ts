/**
 * What an experiment's manifest records of its plug-in files (docs/plugins.md), shared by the floors that read it
 * without the plug-ins' code (the experiment, the tables' layout, the pool, the report): their names, keys and
 * titles, never their functions.
 */

/** The grid keys a plug-in generator may take, beyond n and d. */
export const PLUGIN_KEYS = ["margin", "radius", "offset", "c"] as const;
export type PluginKey = (typeof PLUGIN_KEYS)[number];

/** What a result folder's manifest records of a plug-in generator: what merge, report and check need of it without its code. */
export interface GeneratorFacts {
  readonly name: string;
  readonly description: string;
  readonly keys: readonly PluginKey[];
  readonly required: readonly PluginKey[];
  readonly seeded: boolean;
  readonly bias: boolean;
}

/** What a result folder's manifest records of a plug-in bound: its columns follow from its name. */
export interface BoundFacts {
  readonly name: string;
  readonly title: string;
}

/** A plug-in file of an experiment, as read when the experiment was loaded: what the manifest records. */
export interface PluginInfo {
  /** The absolute path it was loaded from. */
  readonly path: string;
  /** SHA-256 of its bytes: resume and rerun refuse a file that changed (the tables are its data's). */
  readonly sha256: string;
  /** What it defines, as merge, report and check need it without its code. */
  readonly generators: readonly GeneratorFacts[];
  /** Its bounds, whose columns follow the tool's own (table-layout.ts); absent where it defines none. */
  readonly bounds?: readonly BoundFacts[];
}
