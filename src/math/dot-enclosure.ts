import { addDown, addUp, EXACT_PRODUCT, mulDown, mulUp, subDown, sumError, TINY, twoProductError, UNIT } from "./outward-rounding.js";
import { ScratchArray } from "./scratch-array.js";

/** Two float64s around an exact real: lo ≤ value ≤ hi. */
export interface Enclosure {
  readonly lo: number;
  readonly hi: number;
}

/** γ_k = k·u/(1 − k·u) (Higham, "Accuracy and Stability of Numerical Algorithms", 3.1), rounded up. */
export function gamma(k: number): number {
  const ku = k * UNIT;
  // 1 − ku is exact; the quotient and the products each err by at most u, which the two factors 1 + 4u cover.
  const value = (ku / (1 - ku)) * (1 + 4 * UNIT);
  return value + value * 4 * UNIT;
}

/**
 * An enclosure of x·y over `length` terms (x from xOffset, y from yOffset), by Dot2 (Ogita, Rump, Oishi
 * 2005, "Accurate sum and dot product", Algorithm 5.3): the plain sum p, and in s the exact errors of every
 * product (TwoProduct) and sum (TwoSum), so p + s is the dot product as if computed in twice the precision:
 * |p + s − x·y| ≤ γ_n² Σ|x_i y_i| (their Theorem 5.3, before the last rounding), taken here twice over for
 * the rounding of that sum itself. When every error was 0 the plain sum is exact, and so is the enclosure
 * (lo = hi): the structured families' integer data keep exact margins. A product TwoProduct cannot make
 * exact (overflow or underflow range) falls back to the a-priori bound |p − x·y| ≤ γ_n Σ|x_i y_i| + 2n·2⁻¹⁰²² (Higham's, with room for underflow).
 */
export function dotEnclosure(x: ArrayLike<number>, xOffset: number, y: ArrayLike<number>, yOffset: number, length: number): Enclosure {
  let p = 0;
  let s = 0;
  let absolute = 0;
  let exact = true;
  // The range where TwoProduct is exact (outward-rounding.ts, EXACT_PRODUCT), checked once after the loop.
  let largestFactor = 0;
  let smallestProduct = Infinity;
  let underflowed = false;
  for (let k = 0; k < length; k++) {
    const a = x[xOffset + k]!;
    const b = y[yOffset + k]!;
    const h = a * b;
    // TwoProduct without productError's range check (made once, after the loop) and TwoSum.
    const productErr = twoProductError(a, b, h);
    const q = p + h;
    const sumErr = sumError(p, h, q);
    p = q;
    s += productErr + sumErr;
    const magnitude = Math.abs(h);
    absolute += magnitude;
    if (productErr !== 0 || sumErr !== 0) exact = false;
    const factor = Math.max(Math.abs(a), Math.abs(b));
    if (factor > largestFactor) largestFactor = factor;
    if (magnitude === 0) underflowed ||= a !== 0 && b !== 0;
    else if (magnitude < smallestProduct) smallestProduct = magnitude;
  }
  if (!Number.isFinite(p) || !Number.isFinite(absolute)) return { lo: -Infinity, hi: Infinity };
  const compensated = !underflowed && largestFactor <= EXACT_PRODUCT.factor && smallestProduct >= EXACT_PRODUCT.low && absolute <= EXACT_PRODUCT.high;
  if (exact && compensated) return { lo: p, hi: p };
  // Out of TwoProduct's range only because of the vectors' scale (data near 1e±150): the same sum on copies
  // scaled by powers of two, and its enclosure scaled back, is as tight as at unit scale (the a-priori bound's
  // underflow allowance had made R² of data at 1e-150 loose by 1.3e-7).
  if (!compensated && length > 0) {
    const rescaled = atUnitScale(x, xOffset, y, yOffset, length);
    if (rescaled !== null) return rescaled;
  }
  const g = gamma(length + 1);
  // Σ|x_i y_i| ≤ (1 + γ_{n+1})·Σ fl|h_i|: each |h_i| is within an ulp of |x_i y_i|, the sum within γ_n.
  const absoluteBound = mulUp(1 + g, absolute);
  if (!compensated) {
    const error = addUp(mulUp(g, absoluteBound), length * 2 * TINY);
    return { lo: subDown(p, error), hi: addUp(p, error) };
  }
  const error = addUp(mulUp(mulUp(2 * g, g), absoluteBound), length * 2 * TINY);
  return { lo: subDown(addDown(p, s), error), hi: addUp(addUp(p, s), error) };
}

/**
 * dotEnclosure of x and y each scaled by a power of two that brings its largest |value| into [1, 2), the
 * result scaled back with outward rounding; null where the scaling changes nothing, is not exact (a value would
 * become subnormal), or still leaves TwoProduct's range (a dynamic range within a vector beyond 2⁹⁰⁰).
 */
function atUnitScale(x: ArrayLike<number>, xOffset: number, y: ArrayLike<number>, yOffset: number, length: number): Enclosure | null {
  const [xs, ex] = unitScaled(x, xOffset, length);
  const [ys, ey] = unitScaled(y, yOffset, length);
  if (xs === null || ys === null || (ex === 0 && ey === 0)) return null;
  let smallest = Infinity;
  for (let k = 0; k < length; k++) {
    const magnitude = Math.abs(xs[k]! * ys[k]!);
    if (magnitude !== 0 && magnitude < smallest) smallest = magnitude;
    if (magnitude === 0 && xs[k] !== 0 && ys[k] !== 0) return null;
  }
  if (smallest < EXACT_PRODUCT.low) return null;
  const inner = dotEnclosure(xs, 0, ys, 0, length);
  // × 2^(ex + ey), in two steps of normal powers of two, each rounded outward.
  const first = 2 ** Math.trunc((ex + ey) / 2);
  const second = 2 ** (ex + ey - Math.trunc((ex + ey) / 2));
  return { lo: mulDown(mulDown(inner.lo, first), second), hi: mulUp(mulUp(inner.hi, first), second) };
}

/** A copy of values[offset, offset + length) times 2^−e, e such that its largest |value| is in [1, 2), and e; null where not exact. */
function unitScaled(values: ArrayLike<number>, offset: number, length: number): [Float64Array | null, number] {
  let largest = 0;
  for (let k = 0; k < length; k++) largest = Math.max(largest, Math.abs(values[offset + k]!));
  const copy = new Float64Array(length);
  if (largest === 0) return [copy, 0];
  const e = Math.floor(Math.log2(largest));
  const [first, second] = [2 ** -Math.trunc(e / 2), 2 ** -(e - Math.trunc(e / 2))];
  for (let k = 0; k < length; k++) {
    const value = values[offset + k]!;
    const scaled = value * first * second;
    if (scaled / second / first !== value) return [null, 0];
    copy[k] = scaled;
  }
  return [copy, e];
}

/** R² enclosures by data array: every separator of a run's data set shares one (see maxRowSquare). */
const radiusCache = new WeakMap<Float64Array, Enclosure>();

/**
 * An enclosure of max_i ‖u_i‖², the squared radius R² of the rows (n × dim): a plain pass, each row's sum
 * within γ_{dim}·itself of the exact one, then dotEnclosure on the rows that may be the largest. Kept per
 * array `u`, as LearnerData.radiusSquared is computed once when the data are made: an array changed after
 * its first call here keeps the R² of its first contents (the tool never changes a run's data; executeRun
 * reuses one array for every run's, and toLearnerCoordinates remembers each run's R² anew).
 */
export function maxRowSquare(u: Float64Array, n: number, dim: number): Enclosure {
  const known = radiusCache.get(u);
  if (known !== undefined) return known;
  if (n === 0) return { lo: NaN, hi: NaN };
  const squares = ROW_VALUES.of(n);
  for (let i = 0; i < n; i++) {
    const row = i * dim;
    let sum = 0;
    for (let j = 0; j < dim; j++) sum += u[row + j]! * u[row + j]!;
    squares[i] = sum;
  }
  return rememberRowSquares(u, n, dim, squares);
}

/**
 * The R² enclosure of maxRowSquare from the rows' plain sums of squares `squares` (each summed in the
 * order of its row, as maxRowSquare sums them), remembered for `u`: for a caller that summed them anyway
 * (toLearnerCoordinates), so that no second pass over the data is made.
 */
export function rememberRowSquares(u: Float64Array, n: number, dim: number, squares: ArrayLike<number>): Enclosure {
  let greatest = -Infinity;
  for (let i = 0; i < n; i++) if (squares[i]! > greatest) greatest = squares[i]!;
  const g = gamma(dim + 2) * (1 + 8 * UNIT);
  const floor = greatest - 4 * (g * greatest + dim * 2 * TINY);
  let lo = -Infinity;
  let hi = -Infinity;
  for (let i = 0; i < n; i++) {
    if (!(squares[i]! >= floor) && Number.isFinite(floor)) continue;
    const enclosure = dotEnclosure(u, i * dim, u, i * dim, dim);
    lo = Math.max(lo, enclosure.lo);
    hi = Math.max(hi, enclosure.hi);
  }
  const result = n === 0 ? { lo: NaN, hi: NaN } : { lo, hi };
  radiusCache.set(u, result);
  return result;
}

/** The rows' plain squares of maxRowSquare. */
const ROW_VALUES = new ScratchArray();
