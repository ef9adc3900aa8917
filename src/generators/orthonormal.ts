import { drawsOf, type Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { GeneratorEntry } from "./generator-entry.js";

/**
 * The orthonormal family of docs/theory.md (no bias): x_i = e_i in R^n with random labels, so the learner's
 * vectors are u_i = y_i e_i. The planted separator w = Σ y_i e_i (w_i = y_i) has w·u_i = 1 and ‖w‖² = n:
 * (R/γ)² = n, and the perceptron makes exactly n updates from ŵ(0) = 0.
 */
export function generateOrthonormal(n: number, source: Uniform | Draws): DataSet {
  const { uniform } = drawsOf(source);
  const x = new Float64Array(n * n);
  const y = new Int8Array(n);
  const w = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    x[i * n + i] = 1;
    y[i] = uniform() < 0.5 ? 1 : -1;
    w[i] = y[i]!;
  }
  return { n, d: n, x, y, planted: { w, b: 0 } };
}

/**
 * The orthonormal family as the pipeline knows it: d = n, no bias; from ŵ(0) = 0 exactly n = (R/γ*)²
 * updates, in any order and for any η (the u_i have disjoint supports: every first-pass dot product is 0).
 */
export const orthonormalGenerator = {
  name: "orthonormal",
  description: "x_i = e_i in Rⁿ with random labels, no bias (d = n): exactly n = (R/γ)² updates",
  required: ["n"],
  keyNotes: { d: "orthonormal has d = n" },
  keys: [],
  sized: true,
  seeded: true,
  defaultBias: false,
  *shapes(grid) {
    for (const n of grid.n!) for (const d of grid.d ?? [n]) yield { data: null, n, d };
  },
  exclusionReason(p) {
    if (p.bias) return "orthonormal: needs bias false";
    if (p.d !== p.n) return "orthonormal: needs d = n";
    return null;
  },
  dataParameters: (p) => ({ generator: p.generator, n: p.n }),
  generate: (p, source) => generateOrthonormal(p.n, source),
  expectedUpdates: (p) => p.n,
  tight: true,
  resident: false,
  epochsGuess: () => 2,
  plotFamily: "structured",
  expectedRule: "n",
} satisfies GeneratorEntry;
