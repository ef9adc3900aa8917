import { drawsOf, type Draws } from "../random/random-draws.js";
import type { Uniform } from "../random/seeded-random.js";
import type { DataSet } from "./data-set.js";

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
