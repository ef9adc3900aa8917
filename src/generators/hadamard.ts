import { isBinaryPower, isPowerOfTwo } from "../math/power-of-two.js";
import { drawsOf, type Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { GeneratorEntry } from "./generator-entry.js";

/**
 * The Hadamard family of docs/theory.md (with bias): x_i is row i of the Sylvester Hadamard matrix of order n
 * (H_ij = (−1)^popcount(i & j)) without its first column, which is all ones and comes back as the bias
 * coordinate. The augmented vectors are orthogonal with norm √n, whatever the (random) labels.
 * The planted separator is ŵ = Σ u_i = (Σ y_i x_i, Σ y_i): ŵ·u_i = n and ‖ŵ‖² = n², so γ = 1, R² = n
 * and (R/γ)² = n, and the perceptron makes exactly n updates. Integer data: every first-pass dot
 * product is exactly 0, which exercises the "<= 0" mistake rule.
 */
export function generateHadamard(n: number, source: Uniform | Draws): DataSet {
  const { uniform } = drawsOf(source);
  if (!isPowerOfTwo(n)) throw new RangeError(`hadamard needs n a power of 2 (got ${n})`);
  const d = n - 1;
  const x = new Float64Array(n * d);
  const y = new Int8Array(n);
  const w = new Float64Array(d);
  let b = 0;
  for (let i = 0; i < n; i++) {
    const label = uniform() < 0.5 ? 1 : -1;
    y[i] = label;
    b += label;
    for (let j = 1; j < n; j++) {
      const entry = popcount(i & j) % 2 === 0 ? 1 : -1;
      x[i * d + j - 1] = entry;
      w[j - 1]! += label * entry;
    }
  }
  return { n, d, x, y, planted: { w, b } };
}

function popcount(v: number): number {
  let count = 0;
  for (let m = v; m !== 0; m &= m - 1) count++;
  return count;
}

/**
 * The Hadamard family as the pipeline knows it: n a power of 2 (d = n − 1 follows), with a bias; from
 * ŵ(0) = 0 exactly n = (R/γ*)² updates in any order, for η a power of two. Every first-pass dot product is
 * a tie at exactly 0 only in exact arithmetic: sums of a non-dyadic η (0.7, 0.1) leave residues of ±1e-16
 * that break the ties, and the float64 run makes fewer updates (10 instead of 16 at n = 16, η = 0.7).
 */
export const hadamardGenerator = {
  name: "hadamard",
  description: "rows of a Sylvester Hadamard matrix without its first column, random labels, with a bias (n a power of 2, d = n − 1): exactly n = (R/γ)² updates",
  required: ["n"],
  keyNotes: { d: "hadamard has d = n − 1" },
  keys: [],
  sized: true,
  seeded: true,
  defaultBias: true,
  *shapes(grid) {
    for (const n of grid.n!) for (const d of grid.d ?? [n - 1]) yield { data: null, n, d };
  },
  exclusionReason(p) {
    if (!p.bias) return "hadamard: needs bias true";
    if (!isPowerOfTwo(p.n)) return "hadamard: needs n a power of 2";
    if (p.d !== p.n - 1) return "hadamard: needs d = n - 1";
    return null;
  },
  dataParameters: (p) => ({ generator: p.generator, n: p.n }),
  generate: (p, source) => generateHadamard(p.n, source),
  expectedUpdates: (p) => (isBinaryPower(p.eta) ? p.n : null),
  tight: true,
  resident: false,
  epochsGuess: () => 2,
  plotFamily: "structured",
  expectedRule: "n",
} satisfies GeneratorEntry;
