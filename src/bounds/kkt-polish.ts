/**
 * The polish of a max-margin solution (max-margin-separator.ts): the KKT system on the solver's active set,
 * solved exactly where the data are integers, so the structured families' separators come out exact.
 */

/**
 * The KKT solution on an active set A: G λ = 1 with G_kl = u_k·u_l, ŵ = Σ λ_k u_k. Null when G is
 * singular (linearly dependent active points) or a multiplier is negative (A is not the optimal set).
 */
export function polish(active: readonly number[], dim: number, u: (i: number, j: number) => number): { separator: Float64Array; multipliers: Float64Array } | null {
  const size = active.length;
  if (size === 0 || size > dim) return null;
  const g: Float64Array[] = active.map((i) =>
    Float64Array.from(active, (l) => {
      let dot = 0;
      for (let j = 0; j < dim; j++) dot += u(i, j) * u(l, j);
      return dot;
    }),
  );
  const lambda = solveLinear(g, new Float64Array(size).fill(1));
  if (lambda === null || lambda.some((value) => !(value >= 0))) return null;
  const separator = new Float64Array(dim);
  active.forEach((i, k) => {
    for (let j = 0; j < dim; j++) separator[j]! += lambda[k]! * u(i, j);
  });
  return { separator, multipliers: lambda };
}

/** Gaussian elimination with partial pivoting; null for a (numerically) singular matrix. Overwrites a. */
function solveLinear(a: Float64Array[], b: Float64Array): Float64Array | null {
  const size = b.length;
  let largest = 0;
  for (const row of a) for (const value of row) largest = Math.max(largest, Math.abs(value));
  for (let col = 0; col < size; col++) {
    let pivot = col;
    for (let row = col + 1; row < size; row++) if (Math.abs(a[row]![col]!) > Math.abs(a[pivot]![col]!)) pivot = row;
    if (Math.abs(a[pivot]![col]!) <= 1e-12 * largest) return null;
    [a[col], a[pivot]] = [a[pivot]!, a[col]!];
    [b[col], b[pivot]] = [b[pivot]!, b[col]!];
    for (let row = col + 1; row < size; row++) {
      const factor = a[row]![col]! / a[col]![col]!;
      if (factor === 0) continue;
      for (let k = col; k < size; k++) a[row]![k]! -= factor * a[col]![k]!;
      b[row]! -= factor * b[col]!;
    }
  }
  const x = new Float64Array(size);
  for (let row = size - 1; row >= 0; row--) {
    let sum = b[row]!;
    for (let k = row + 1; k < size; k++) sum -= a[row]![k]! * x[k]!;
    x[row] = sum / a[row]![row]!;
  }
  return x;
}
