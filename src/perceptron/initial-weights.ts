import { drawsOf, type Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import { smallFloat64Array } from "../math/small-arrays.js";
import { InputError } from "../vocabulary/input-error.js";

/** How ŵ(0) is chosen: `zero`, `normal:<scale>` (N(0, scale²) entries), `uniform:<scale>` (U(−scale, scale)). */
export type InitSpec =
  | { readonly kind: "zero" }
  | { readonly kind: "normal" | "uniform"; readonly scale: number }
  | { readonly kind: "explicit"; readonly weights: readonly number[] };

const RANDOM_INIT = /^(normal|uniform):(.+)$/;

/**
 * Reads `zero`, `normal:<scale>` or `uniform:<scale>` (scale a finite number > 0), and with
 * `allowExplicit` a comma-separated list of weights; throws an InputError saying why it cannot
 * (`init "normal:x" has no valid scale: …`), as the library's other readers do.
 */
export function parseInit(text: string, allowExplicit = false): InitSpec {
  const init = readInit(text, allowExplicit);
  if ("error" in init) throw new InputError(`init ${JSON.stringify(text)} ${init.error}`);
  return init;
}

/**
 * parseInit without the throw, for the readers that word the error themselves (the experiment's schema,
 * fit's --init): the broken rule, worded to follow the offending text (`has no valid scale: …`).
 */
export function readInit(text: string, allowExplicit = false): InitSpec | { readonly error: string } {
  if (text === "zero") return { kind: "zero" };
  const match = RANDOM_INIT.exec(text);
  if (match) {
    const scale = match[2]!.trim() === "" ? NaN : Number(match[2]);
    if (!Number.isFinite(scale) || scale <= 0) return { error: `has no valid scale: use a finite number > 0, as in "${match[1]}:1"` };
    return { kind: match[1] as "normal" | "uniform", scale };
  }
  const looksExplicit = text.includes(",") || (text.trim() !== "" && !Number.isNaN(Number(text)));
  if (allowExplicit && looksExplicit) {
    const parts = text.split(",");
    const weights = parts.map((part) => (part.trim() === "" ? NaN : Number(part)));
    const bad = weights.findIndex((value) => !Number.isFinite(value));
    if (bad >= 0) return { error: `has weight ${bad + 1} (${JSON.stringify(parts[bad])}) that is not a finite number` };
    return { kind: "explicit", weights };
  }
  const explicit = allowExplicit ? ', or the weights "w1,...,wd,b"' : "";
  return { error: `is not a valid init: use "zero", "normal:<scale>" or "uniform:<scale>" with scale > 0${explicit}` };
}

export function formatInit(init: InitSpec): string {
  switch (init.kind) {
    case "zero":
      return "zero";
    case "explicit":
      return init.weights.join(",");
    default:
      return `${init.kind}:${init.scale}`;
  }
}

/**
 * ŵ(0) of length `dim` (bias last), drawn from the run's own `init` stream. The stream is opened (seeded,
 * about a microsecond) only by the inits that draw from it: a zero or explicit ŵ(0) never calls `stream`.
 */
export function drawInitialWeights(init: InitSpec, dim: number, stream: () => Uniform | Draws): Float64Array {
  const weights = smallFloat64Array(dim);
  switch (init.kind) {
    case "zero":
      break;
    case "normal": {
      const { normal } = drawsOf(stream());
      for (let j = 0; j < dim; j++) weights[j] = init.scale * normal.next();
      break;
    }
    case "uniform": {
      const random = drawsOf(stream()).uniform;
      for (let j = 0; j < dim; j++) weights[j] = init.scale * (2 * random() - 1);
      break;
    }
    case "explicit":
      if (init.weights.length !== dim) {
        throw new RangeError(`the explicit init has ${init.weights.length} weights, the learner needs ${dim} (bias last)`);
      }
      weights.set(init.weights);
      break;
  }
  return weights;
}
