/**
 * A labelled data set in the input space, with the separator its generator planted.
 * Points are rows of `x` (n × d, row-major); labels are ±1.
 */
export interface DataSet {
  readonly n: number;
  readonly d: number;
  readonly x: Float64Array;
  readonly y: Int8Array;
  /**
   * The planted hyperplane w·x + b = 0 in the input space (w need not be a unit vector), or null for
   * data nobody planted (a user's CSV). It separates with y_i (w·x_i + b) > 0.
   */
  readonly planted: { readonly w: Float64Array; readonly b: number } | null;
}
