import type { DataSet } from "../vocabulary/data-set.js";
import type { GeneratorEntry } from "../generators/generator-entry.js";
import { flipLabels } from "../generators/label-noise.js";
import { drawsOf } from "../random/random-draws.js";
import { beyondSeparable, type PointParameters } from "../vocabulary/point-parameters.js";
import type { GeneratorFacts, GeneratorPlugin, PluginData, PluginKey, PluginParameters } from "../vocabulary/plugin-definitions.js";
import { allFinite } from "../math/array-tests.js";

/** The facts of a checked plug-in generator. */
export function generatorFacts(plugin: GeneratorPlugin): GeneratorFacts {
  return { name: plugin.name, description: plugin.description, keys: [...(plugin.keys ?? [])], required: [...(plugin.required ?? [])], seeded: plugin.seeded ?? true, bias: plugin.bias ?? true };
}

/**
 * A plug-in generator as the pipeline knows every generator (generator-entry.ts). Without `plugin` (merge,
 * report: a folder's recorded facts) it plans and names its points but generates nothing. Its points carry
 * n, d, its keys and noise; label noise flips its labels after it draws (label-noise.ts), as for every family.
 */
export function pluginGeneratorEntry(facts: GeneratorFacts, plugin: GeneratorPlugin | null): GeneratorEntry {
  const parametersOf = (p: PointParameters): PluginParameters => {
    const parameters: Record<string, number> = { n: p.n, d: p.d };
    for (const key of facts.keys) if (p[key] !== null) parameters[key] = p[key];
    return Object.freeze(parameters) as PluginParameters;
  };
  return {
    name: facts.name,
    description: facts.description,
    required: ["n", "d", ...facts.required.filter((key): key is "margin" | "c" => key === "margin" || key === "c")],
    keys: [...facts.keys, "noise"],
    keyDefaults: { noise: 0 },
    sized: true,
    seeded: facts.seeded,
    defaultBias: facts.bias,
    *shapes(grid) {
      for (const n of grid.n ?? []) for (const d of grid.d ?? []) yield { data: null, n, d };
    },
    exclusionReason(p) {
      if (plugin?.exclude === undefined) return null;
      const reason = plugin.exclude(parametersOf(p));
      return reason === null || reason === undefined ? null : `${facts.name}: ${String(reason)}`;
    },
    // Noise does not enter the seed (the planted family's rule): the flipped points of a rate are a subset of those of any larger rate.
    dataParameters: (p) => ({ generator: p.generator, n: p.n, d: p.d, ...Object.fromEntries(facts.keys.map((key) => [key, p[key]])) }),
    generate(p, source) {
      if (plugin === null) throw new Error(`the ${facts.name} generator's plug-in is not loaded here (its folder's facts only)`);
      const draws = drawsOf(source);
      const data = checkedData(facts.name, plugin.generate(parametersOf(p), { uniform: draws.uniform, normal: () => draws.normal.next() }), p.n, p.d);
      flipLabels(data.y, p.noise ?? 0, draws.uniform);
      return data;
    },
    expectedUpdates: () => null,
    tight: false,
    resident: false,
    epochsGuess: (p, maxEpochs) => (beyondSeparable(p) ? 2 * maxEpochs : Math.min(maxEpochs, 100)),
    plotFamily: "data",
  };
}

/** A plug-in's data set checked against its point's n and d, copied into the pipeline's arrays; throws saying what is wrong. */
function checkedData(name: string, data: PluginData, n: number, d: number): DataSet {
  const fail = (what: string): never => {
    throw new Error(`the ${name} generator (a plug-in) ${what}`);
  };
  if (data === null || typeof data !== "object") fail("returned no { x, y }");
  const x = new Float64Array(n * d);
  const rows = data.x as ArrayLike<unknown>;
  if (rows === null || typeof rows !== "object" || typeof rows.length !== "number") fail("returned no x (n·d numbers, or n rows of d)");
  if (rows.length > 0 && typeof rows[0] === "object" && rows[0] !== null) {
    if (rows.length !== n) fail(`returned x of ${rows.length} rows for n = ${n}`);
    for (let i = 0; i < n; i++) {
      const row = rows[i] as ArrayLike<number>;
      if (row?.length !== d) fail(`returned x[${i}] of ${row?.length ?? "no"} numbers for d = ${d}`);
      for (let j = 0; j < d; j++) x[i * d + j] = row[j]!;
    }
  } else if (rows.length === n * d) {
    for (let k = 0; k < n * d; k++) x[k] = rows[k] as number;
  } else {
    fail(`returned x of ${rows.length} values for n = ${n}, d = ${d} (n·d numbers, or n rows of d)`);
  }
  // A value that is not a number (a string, undefined) reads as NaN in the Float64Array.
  for (let k = 0; k < x.length; k++) if (!Number.isFinite(x[k])) fail(`returned a coordinate of point ${Math.floor(k / d)} that is not a finite number`);
  if (data.y?.length !== n) fail(`returned ${data.y?.length ?? "no"} labels for n = ${n}`);
  const y = new Int8Array(n);
  for (let i = 0; i < n; i++) {
    const label = data.y[i];
    if (label !== 1 && label !== -1) fail(`returned label ${String(label)} for point ${i} (labels are −1 or +1)`);
    y[i] = label as 1 | -1;
  }
  const planted = data.planted ?? null;
  if (planted === null) return { n, d, x, y, planted: null };
  if (planted.w?.length !== d) fail(`returned a planted w of ${planted.w?.length ?? "no"} numbers for d = ${d}`);
  const w = Float64Array.from(planted.w);
  const b = planted.b ?? 0;
  if (!(allFinite(w) && Number.isFinite(b))) fail("returned a planted separator that is not finite");
  // The bounds of docs/theory.md assume a separator: one that does not separate would make them wrong, not loose.
  for (let i = 0; i < n; i++) {
    let dot = b;
    for (let j = 0; j < d; j++) dot += w[j]! * x[i * d + j]!;
    if (!(y[i]! * dot > 0)) fail(`returned a planted separator that does not separate point ${i} (y·(w·x + b) = ${y[i]! * dot})`);
  }
  return { n, d, x, y, planted: { w, b } };
}
