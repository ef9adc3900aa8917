/**
 * The data as the learner sees it (docs/theory.md, "Data and coordinates"): the normalised vectors
 * u_i = y_i x̂_i, with x̂_i = (x_i, 1) (bias last) when there is a bias and x̂_i = x_i otherwise.
 * A weight vector ŵ separates the data iff ŵ·u_i > 0 for every i.
 */
export interface LearnerData {
  readonly n: number;
  /** d + 1 with a bias, d without. */
  readonly dim: number;
  /** n × dim, row-major. */
  readonly u: Float64Array;
  /** M = R² = max_i ‖u_i‖², summed directly (not squared from R) so integer data stay exact. */
  readonly radiusSquared: number;
}
