import type { LearnerData } from "../perceptron/learner-coordinates.js";

/**
 * Data whose coordinates differ by orders of magnitude, rescaled column by column by powers of two (exact), for
 * a second try of the max-margin QP where quadprog called separable data infeasible (max-margin-separator.ts).
 */

/**
 * The data with coordinate j multiplied by s_j, a power of two that brings its largest |u_ij| into [½, 1),
 * with the scales; null where the columns' scales lie within 2²⁰ of each other, or a scaled value would leave
 * float64's normal range.
 */
const BALANCE_SPREAD = 20;

export function balancedCoordinates(data: LearnerData): { data: LearnerData; scales: Float64Array } | null {
  const { n, dim, u } = data;
  const scales = new Float64Array(dim).fill(1);
  let [low, high] = [Infinity, -Infinity];
  for (let j = 0; j < dim; j++) {
    let largest = 0;
    for (let i = 0; i < n; i++) largest = Math.max(largest, Math.abs(u[i * dim + j]!));
    if (!(largest > 0) || !Number.isFinite(largest)) continue;
    const exponent = Math.floor(Math.log2(largest)) + 1;
    [low, high] = [Math.min(low, exponent), Math.max(high, exponent)];
    if (Math.abs(exponent) <= 1000) scales[j] = 2 ** -exponent;
  }
  // Coordinates within a factor 2²⁰ of each other are within quadprog's reach already (and data that are not
  // separable, noisy sweeps' many, are not solved twice).
  if (!(high - low >= BALANCE_SPREAD)) return null;
  const scaled = new Float64Array(n * dim);
  let radiusSquared = 0;
  for (let i = 0; i < n; i++) {
    let square = 0;
    for (let j = 0; j < dim; j++) {
      const value = u[i * dim + j]! * scales[j]!;
      if (value !== 0 && Math.abs(value) < 2 ** -1021) return null;
      scaled[i * dim + j] = value;
      square += value * value;
    }
    radiusSquared = Math.max(radiusSquared, square);
  }
  // The separator of the scaled data, ŵ', gives ŵ'·u'_i = Σ_j ŵ'_j s_j u_ij: ŵ_j = ŵ'_j s_j on these.
  return { data: { n, dim, u: scaled, radiusSquared }, scales };
}
