/**
 * The plug-in interface (docs/plugins.md): what a plug-in module defines, its types and the checks of a definition.
 * On the vocabulary floor, imported by every stage that takes plug-ins (the bounds, the schema, the loader, the
 * report); the package's `perceptron-lab/plugin` entry (plugins/plugin-api.ts) adds the rounded operations.
 */
// The grid keys a plug-in generator may take beside n and d (noise it always takes: a transform of any data), and
// what a manifest records of a plug-in: shapes of the vocabulary floor, part of this entry's types.
import { PLUGIN_KEYS, type BoundFacts, type GeneratorFacts, type PluginKey } from "./plugin-info.js";

export { PLUGIN_KEYS, type BoundFacts, type GeneratorFacts, type PluginKey };

/** What a plug-in generator is given of its grid point: n, d and the keys it declared (the others absent). */
export type PluginParameters = { readonly n: number; readonly d: number } & { readonly [K in PluginKey]?: number };

/**
 * The random draws a plug-in generator may use: the run's `data` stream, as the built-in generators draw it
 * (docs/plugins.md). A generator that draws from anything else (Math.random, the clock) breaks the tables'
 * determinism.
 */
export interface PluginDraws {
  /** A uniform on [0, 1). */
  uniform(): number;
  /** A standard normal. */
  normal(): number;
}

/** A plug-in generator's data set: n points of d coordinates, their labels, and its planted separator if it has one. */
export interface PluginData {
  /** The points, row by row: n·d numbers (a Float64Array or an array), or n arrays of d numbers. */
  readonly x: ArrayLike<number> | readonly ArrayLike<number>[];
  /** The labels, −1 or +1. */
  readonly y: ArrayLike<number>;
  /** A hyperplane w·x + b = 0 that separates the points (y_i (w·x_i + b) > 0 for every i), if the generator knows one. */
  readonly planted?: { readonly w: ArrayLike<number>; readonly b?: number } | null;
}

/** A generator a library user adds (docs/plugins.md): made by defineGenerator, loaded from its module's file. */
export interface GeneratorPlugin {
  readonly kind: "generator";
  /** Its name in a grid's `generator` (lower-case letters, digits and '-'; not a built-in generator's). */
  readonly name: string;
  /** One line: what its data are and what its keys mean. */
  readonly description: string;
  /** The grid keys it takes beside n and d (of margin, radius, offset, c); none by default. */
  readonly keys?: readonly PluginKey[];
  /** The keys of `keys` a grid must give (no default serves them); radius and offset default to 1 and 0. */
  readonly required?: readonly PluginKey[];
  /** Whether its data depend on the run's seed (default true); a fixed data set says false. */
  readonly seeded?: boolean;
  /** Whether the learner has a bias where the grid does not say (default true). */
  readonly bias?: boolean;
  /** A rule a grid point breaks (the point is skipped and counted, as for the built-in families), or null. */
  exclude?(parameters: PluginParameters): string | null;
  /** The data set of a grid point, drawn from `draws` only. */
  generate(parameters: PluginParameters, draws: PluginDraws): PluginData;
}


/** A plug-in generator's name: as the built-in ones are written (the registry refuses theirs). */
export const PLUGIN_GENERATOR_NAME = /^[a-z][a-z0-9-]{0,39}$/;

/**
 * A plug-in generator, checked: its module's default export (or one of a list) for `plugins` in an
 * experiment (docs/plugins.md). Throws a TypeError naming what is wrong.
 */
export function defineGenerator(definition: Omit<GeneratorPlugin, "kind">): GeneratorPlugin {
  const fail = refusal("defineGenerator", definition);
  if (definition === null || typeof definition !== "object") fail("takes an object");
  if (typeof definition.name !== "string" || !PLUGIN_GENERATOR_NAME.test(definition.name)) fail("name must be lower-case letters, digits and '-' (at most 40), starting with a letter");
  if (typeof definition.description !== "string" || definition.description.trim() === "") fail("description must be a line of text");
  if (typeof definition.generate !== "function") fail("generate must be a function (parameters, draws) => { x, y, planted? }");
  if (definition.exclude !== undefined && typeof definition.exclude !== "function") fail("exclude must be a function (parameters) => string | null");
  const keys = definition.keys ?? [];
  if (!Array.isArray(keys) || keys.some((key) => !(PLUGIN_KEYS as readonly string[]).includes(key))) fail(`keys must be a list of ${PLUGIN_KEYS.join(", ")}`);
  if (new Set(keys).size !== keys.length) fail("keys lists a key twice");
  const required = definition.required ?? [];
  if (!Array.isArray(required) || required.some((key) => !keys.includes(key))) fail("required must be a list of keys it takes (keys)");
  for (const flag of ["seeded", "bias"] as const) if (definition[flag] !== undefined && typeof definition[flag] !== "boolean") fail(`${flag} must be true or false`);
  return Object.freeze({ ...definition, kind: "generator" as const, keys: Object.freeze([...keys]), required: Object.freeze([...required]) });
}


/** A closed interval [lo, hi] that holds an exact value (docs/bounds.md, "Rounding"). */
export interface Interval {
  readonly lo: number;
  readonly hi: number;
}

/**
 * What a plug-in bound is given of one separator ŵ of one run (the planted one, then the max-margin one),
 * in the learner's coordinates u_i = y_i (x_i, 1) (with a bias) or y_i x_i: the same quantities the built-in
 * bounds are written with (docs/theory.md), as intervals that hold their exact values. Called only for a
 * separator proven to separate (margin.lo > 0).
 */
export interface BoundContext {
  readonly n: number;
  /** d + 1 with a bias, d without. */
  readonly dim: number;
  /** The rows u_i, n × dim, row-major (read only). */
  readonly rows: Float64Array;
  /** ŵ (any positive scale; the bounds depend on its direction only). */
  readonly separator: Float64Array;
  /** The run's increment η. */
  readonly eta: number;
  /** ŵ(0), bias last. */
  readonly initialWeights: Float64Array;
  readonly zeroInit: boolean;
  /** M = R² = max_i ‖u_i‖². */
  readonly radiusSquared: Interval;
  /** a = min_i ŵ·u_i (> 0). */
  readonly margin: Interval;
  /** S = ‖ŵ‖²; γ = a/√S. */
  readonly normSquared: Interval;
  /** ‖ŵ(0)‖². */
  initNormSquared(): Interval;
}

/** A plug-in bound's name: it makes its columns' names (`planted<Name>Bound`), so letters and digits, camelCase. */
export const PLUGIN_BOUND_NAME = /^[a-z][A-Za-z0-9]{0,39}$/;

/** A bound a library user adds (docs/plugins.md): made by defineBound, loaded from its module's file. */
export interface BoundPlugin {
  readonly kind: "bound";
  /** Its columns' stem: `planted<Name>Bound`, `optimal<Name>Bound` and their ratios (camelCase letters and digits). */
  readonly name: string;
  /** How the report and the printed table head its column. */
  readonly title: string;
  /**
   * An upper bound on the run's number of updates, from one separator: a number ≥ 0 (Infinity for none
   * finite), or null where it does not apply. Round every step upward (mulUp, divUp, …): the tables hold it as
   * a guarantee, and a converged run whose updates exceed it shows a ratio above 1.
   */
  evaluate(context: BoundContext): number | null;
}

/**
 * A plug-in bound, checked: its module's default export (or one of a list) for `plugins` in an experiment
 * (docs/plugins.md). Throws a TypeError naming what is wrong.
 */
export function defineBound(definition: Omit<BoundPlugin, "kind">): BoundPlugin {
  const fail = refusal("defineBound", definition);
  if (definition === null || typeof definition !== "object") fail("takes an object");
  if (typeof definition.name !== "string" || !PLUGIN_BOUND_NAME.test(definition.name)) fail("name must be letters and digits (at most 40), starting with a lower-case letter: it makes its columns' names");
  if (typeof definition.title !== "string" || definition.title.trim() === "") fail("title must be a short text");
  if (typeof definition.evaluate !== "function") fail("evaluate must be a function (context) => number | null");
  return Object.freeze({ ...definition, kind: "bound" as const });
}


/** What a define… function throws for a definition it cannot take: a TypeError naming it, `defineBound (name): …`. */
function refusal(caller: string, definition: { readonly name?: unknown } | null | undefined): (what: string) => never {
  return (what) => {
    throw new TypeError(`${caller}${typeof definition?.name === "string" ? ` (${definition.name})` : ""}: ${what}`);
  };
}
