import { RUN_TABLE_NAMES } from "../vocabulary/result-files.js";
import { z } from "zod";
import { A_POSTERIORI_KEYS, BOUND_KEYS } from "../bounds/bound-choice.js";
import { DEFAULT_GENERATOR, GENERATOR_ENTRIES, GENERATORS, type GeneratorName } from "../generators/generator-registry.js";
import { readInit } from "../perceptron/initial-weights.js";
import { PLUGIN_GENERATOR_NAME } from "../vocabulary/plugin-definitions.js";
import { DATA_VERSIONS, LATEST_DATA_VERSION } from "../random/data-version.js";
import { ORDERS } from "../vocabulary/point-parameters.js";

export { ORDERS };

/**
 * The experiment file format (docs/experiments.md), checked once at the edge. Every message is
 * the tail of a one-line error: the formatter puts the field's path and the offending value in front
 * (`grid.margin[2]: 1.5 must be smaller than radius 1`).
 */


// zod 4's number() refuses NaN and ±Infinity (JSON turns 1e400 into Infinity).
const notANumber = (issue: { input?: unknown }) => (typeof issue.input === "number" ? "is not a finite number" : "is not a number");
const finiteNumber = z.number({ error: notANumber });
const positiveNumber = finiteNumber.gt(0, { error: "must be greater than 0" });
// A whole number past 2^53 − 1 is one JavaScript cannot hold exactly (1e16 reads as 10000000000000000 but its neighbours do not): say so, not that it is fractional.
const wholeNumber = z
  .number({ error: notANumber })
  .int({ error: (issue) => (Number.isInteger(issue.input) ? `must be at most ${Number.MAX_SAFE_INTEGER} (2^53 − 1) in size: larger whole numbers are not exact in JSON's doubles` : "must be a whole number") });
const positiveInteger = wholeNumber.min(1, { error: "must be at least 1" });
const initText = z.string({ error: 'is not a string such as "zero" or "normal:1"' }).superRefine((text, ctx) => {
  const parsed = readInit(text);
  if ("error" in parsed) ctx.addIssue({ code: "custom", message: parsed.error });
});

/**
 * A grid key's description, assembled from the registry (each generator declares what a key means to it, or how
 * it treats one it fixes or derives: GeneratorEntry.keyNotes): its meaning (`base`, or the first note), the
 * generators that require it, then the other generators' notes.
 */
function keyDescription(key: "n" | "d" | "data" | "margin" | "c", base: string | null): string {
  const required = GENERATOR_ENTRIES.filter((entry) => (entry.required as readonly string[]).includes(key)).map((entry) => entry.name);
  const notes = GENERATOR_ENTRIES.flatMap((entry) => {
    const note = (entry.keyNotes as Partial<Record<string, string>> | undefined)?.[key];
    return note === undefined ? [] : [note];
  });
  const [meaning, rest] = base === null ? [notes[0] ?? key, notes.slice(1)] : [base, notes];
  const list = (names: readonly string[]) => (names.length < 2 ? names.join("") : `${names.slice(0, -1).join(", ")} and ${names.at(-1)}`);
  return `${meaning}${required.length === 0 ? "" : `; required by ${list(required)}`}${rest.length === 0 ? "" : ` (${rest.join("; ")})`}.`;
}

/** A value or a non-empty list of values: a scalar is shorthand for a one-element list. */
function oneOrMany<T extends z.ZodType>(item: T) {
  return z.union([item, z.array(item).min(1, { error: "must not be an empty list" })]);
}

export const gridSchema = z
  .strictObject({
    generator: oneOrMany(
      // A plug-in's name (docs/plugins.md) passes here; the loader refuses a name no plug-in of the experiment defines.
      z.union([z.enum(GENERATORS), z.string().regex(PLUGIN_GENERATOR_NAME)], { error: `must be one of ${GENERATORS.join(", ")}` }),
    )
      .optional()
      .describe(`Data generators; default ${DEFAULT_GENERATOR}. ${GENERATOR_ENTRIES.map((entry) => `${entry.name}: ${entry.description}.`).join(" ")} Or a generator of the experiment's plugins.`),
    data: oneOrMany(z.string({ error: "is not a string (a CSV file's path)" }).min(1, { error: "must not be empty" }))
      .optional()
      .describe(keyDescription("data", null)),
    n: oneOrMany(positiveInteger).optional().describe(keyDescription("n", "Number of points")),
    d: oneOrMany(positiveInteger).optional().describe(keyDescription("d", "Input dimension")),
    margin: oneOrMany(positiveNumber).optional().describe(keyDescription("margin", null)),
    radius: oneOrMany(positiveNumber).optional().describe("Planted radius R: every point has ‖x‖ ≤ R; default 1."),
    offset: oneOrMany(finiteNumber)
      .optional()
      .describe("Planted offset b of the hyperplane w·x + b = 0; |b| + margin < radius; default 0."),
    noise: oneOrMany(finiteNumber.min(0, { error: "must be at least 0" }).max(1, { error: "must be at most 1 (a probability)" }))
      .optional()
      .describe("Label noise, of the planted family or of a data file (csv): each label flipped with this probability, drawn from the run's data stream after its data (docs/theory.md, \"Beyond separable data\"); runs that differ only in noise share their clean data and flip draws, so a point flipped at one rate is flipped at every larger one; default 0 (planted), none (csv)."),
    overlap: oneOrMany(finiteNumber.min(0, { error: "must be at least 0" }))
      .optional()
      .describe("Planted overlap δ: points other than the support pair draw their signed distance t uniformly from [−δ, 0) ∪ [margin, radius ± offset], so some lie on the wrong side of the planted hyperplane, at most δ deep; needs |offset| + δ < radius; default 0."),
    // Its rules are its generator's (gridProblems), as every family key's.
    c: oneOrMany(finiteNumber).optional().describe(keyDescription("c", null)),
    bias: oneOrMany(z.boolean({ error: "must be true or false" }))
      .optional()
      .describe(`Whether the learner has a bias; default ${GENERATOR_ENTRIES.filter((entry) => !entry.defaultBias).map((entry) => `false for ${entry.name}`).join(", ")}, true for the others.`),
    eta: oneOrMany(positiveNumber).optional().describe("Increment η > 0; default 1."),
    init: oneOrMany(initText)
      .optional()
      .describe('Initial weights ŵ(0): "zero", "normal:<scale>" or "uniform:<scale>"; default "zero".'),
    order: oneOrMany(z.enum(ORDERS, { error: `must be one of ${ORDERS.join(", ")}` }))
      .optional()
      .describe(
        'Presentation order: "cyclic", "shuffle" (a seeded permutation each epoch), or an adversarial rule that updates one mistaken point a step: "most-violated" (smallest ŵ·u), "least-progress" (smallest v·u for the max-margin v), "most-growth" (largest ‖u‖² + 2ŵ·u/η), "random-mistake" (seeded uniform: the textbook PLA); default "cyclic".',
      ),
  })
  .describe("One grid: the sweep is the Cartesian product of its lists.");

export const experimentSchema = z
  .strictObject({
    $schema: z.string().optional().describe("Path or URL of this JSON Schema, for editors."),
    name: z
      .string({ error: "is not a string" })
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]*$/, { error: "must be letters, digits, '.', '_' or '-' (it names the output folder)" })
      .optional()
      .describe("Names the output folder results/<name>; default: the file's name without .json."),
    description: z.string({ error: "is not a string" }).optional().describe("Free text, for people."),
    seed: wholeNumber
      .min(0, { error: "must be at least 0" })
      .max(Number.MAX_SAFE_INTEGER, { error: "must be at most 2^53 − 1" })
      .optional()
      .describe("Experiment seed; every run's seed is a hash of it and the run's own parameters; default 1."),
    repeats: positiveInteger.optional().describe("Runs per grid point, each with its own seed; default 1."),
    maxEpochs: positiveInteger.optional().describe("Epoch cap of every run (converged: false when reached); default 100000."),
    worstOrderBudget: positiveInteger
      .optional()
      .describe("With bounds listing worstOrder: the most states the exact search over presentation orders expands a run (past it, a bracket); default 300000 (docs/theory.md, \"The worst order\")."),
    optimal: z
      .boolean({ error: "must be true or false" })
      .optional()
      .describe("Compute the max-margin separator and its bounds for every run (the slowest step); default true."),
    bounds: z
      .union([
        z.enum(["all", "default", ...BOUND_KEYS], { error: `must be "all", "default", or one or a list of ${BOUND_KEYS.join(", ")}` }),
        // An empty list computes no bound: a study of the updates alone, at the perceptron's own speed.
        z.array(z.enum(["all", "default", ...BOUND_KEYS], { error: `must be "all", "default" or one of ${BOUND_KEYS.join(", ")}` })),
      ], { error: `must be "all", "default", or one or a list of ${BOUND_KEYS.join(", ")}` })
      .optional()
      .describe(
        `Which bounds every run computes (docs/experiments.md, "Which bounds"): a list of ${BOUND_KEYS.join(", ")}, or "all" (every a-priori bound). ` +
          'Default ("default"): novikoff, snapp, hu, optimised and best for the planted separator and, with optimal, the max-margin one; ' +
          "freundSchapire and tightest only on data not known to be separable (label noise or overlap above 0, or a csv data set without a separating vector found). " +
          `The a-posteriori ${A_POSTERIORI_KEYS.join(" and ")} (the proof's four factors, the mistake-set bounds) are computed only where listed, as in ["default", "factors"]. ` +
          "Columns not computed stay in the tables, empty.",
      ),
    dataVersion: z
      .union(DATA_VERSIONS.map((version) => z.literal(version)) as unknown as [z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>], { error: `must be one of the data versions ${DATA_VERSIONS.join(", ")}` })
      .optional()
      .describe(`How the random data, initial weights and orders are drawn (docs/theory.md, "Data versions"): 1 (alea, polar normals), 2 (xoshiro128**, ziggurat normals, ~5× faster) or 3 (version 2 with every stream seeded from the whole seed by SplitMix64); default ${LATEST_DATA_VERSION}. A version draws the same bits forever.`),
    tables: oneOrMany(z.enum(RUN_TABLE_NAMES, { error: `must be one or a list of ${RUN_TABLE_NAMES.join(", ")}` }))
      .optional()
      .describe('The run tables the result folder keeps (docs/outputs.md, "The record and its views"): runs.parquet always; runs.csv and runs.jsonl are views of the same rows, formatted as the runs come. Default ["csv", "jsonl", "parquet"]; "parquet" alone formats no text (the fastest, ~1/10 of the disk). --tables overrides it.'),
    plugins: oneOrMany(z.string({ error: "is not a string (a JavaScript module's path)" }).min(1, { error: "must not be empty" }))
      .optional()
      .describe("Plug-in files (docs/plugins.md): JavaScript modules whose default export is defineGenerator({ … }), defineBound({ … }) or a list of them, paths relative to the experiment file; their generators may then be named in a grid's generator, and their bounds get columns in every table."),
    grid: z
      .union([gridSchema, z.array(gridSchema).min(1, { error: "must not be an empty list" })])
      .describe("A grid, or a list of grids whose sweeps are concatenated."),
  })
  .superRefine((input, ctx) => {
    const listed = input.bounds === undefined || input.bounds === "all" || input.bounds === "default" ? null : [input.bounds].flat();
    if (listed !== null && listed.length > 0 && listed.every((name) => name === "best")) {
      ctx.addIssue({ code: "custom", path: ["bounds"], input: input.bounds, message: "best is the smallest of the bounds listed: list at least one of novikoff, snapp, hu, optimised, tightest beside it" });
    }
    if (listed?.includes("tightest") && input.optimal === false) {
      ctx.addIssue({ code: "custom", path: ["bounds"], input: input.bounds, message: "tightest searches from the max-margin separator: it needs optimal true" });
    }
  })
  .describe("A perceptron-lab experiment.");

export type GridInput = z.infer<typeof gridSchema>;
export type ExperimentInput = z.infer<typeof experimentSchema>;
export type { GeneratorName };
export { GENERATORS };
