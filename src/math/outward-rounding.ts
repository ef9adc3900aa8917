/**
 * Arithmetic rounded outward: `…Up` returns a float64 at or above the exact result, `…Down` one at or
 * below. JavaScript rounds every +, −, ×, ÷ and √ to nearest (IEEE 754), so the exact result lies within
 * half an ulp of the rounded one; one step to the next float64 covers it. The step is taken only when the
 * exact result lies on that side: an error-free transformation gives the rounding error exactly (Knuth's
 * TwoSum; Dekker's TwoProduct with Veltkamp's split; the residual x − q·y of a quotient and x − s² of a
 * square root, exact by the same means), so an exact operation stays exact. The structured families'
 * integer data keep their exact bounds (n, not nextUp(n)). Where those transformations could overflow or
 * lose bits to underflow, the step is taken unconditionally: a bound one ulp looser, never a wrong one.
 *
 * Reference: Rump, Ogita, Oishi, "Accurate floating-point summation", SIAM J. Sci. Comput. 31 (2008);
 * Ogita, Rump, Oishi, "Accurate sum and dot product", SIAM J. Sci. Comput. 26 (2005), sections 2-3.
 */

/** Half an ulp of 1: the unit roundoff of float64. */
export const UNIT = 2 ** -53;
/**
 * More than an underflowing product or sum can lose (2⁻¹⁰⁷⁵): the smallest normal float64. A subnormal
 * constant would do, but arithmetic on subnormals takes x86's slow path (~100 cycles): a row's slack
 * computed with one was 5x slower.
 */
export const TINY = 2 ** -1022;

const scratch = new Float64Array(1);
const words = new Uint32Array(scratch.buffer);

/** The smallest float64 above x (x for +∞ and NaN). */
export function nextUp(x: number): number {
  if (x !== x || x === Infinity) return x;
  if (x === 0) return Number.MIN_VALUE;
  scratch[0] = x;
  if (x > 0) {
    words[0] = (words[0]! + 1) >>> 0;
    if (words[0] === 0) words[1] = words[1]! + 1;
  } else {
    if (words[0] === 0) words[1] = words[1]! - 1;
    words[0] = (words[0]! - 1) >>> 0;
  }
  return scratch[0]!;
}

/** The largest float64 below x (x for −∞ and NaN). */
export function nextDown(x: number): number {
  return -nextUp(-x);
}

/** Veltkamp's splitter 2²⁷ + 1: a = high + low with 26-bit halves, for Dekker's exact product. */
export const SPLITTER = 134217729;
/** Products whose magnitude is inside [2⁻⁹⁰⁰, 2⁹⁹⁰] of factors below 2⁹⁹⁵: TwoProduct is exact there. */
export const EXACT_PRODUCT = { low: 2 ** -900, high: 2 ** 990, factor: 2 ** 995 } as const;

/** a·b − p exactly for p = fl(a·b), or NaN where TwoProduct cannot promise it (see EXACT_PRODUCT). */
export function productError(a: number, b: number, p: number): number {
  const magnitude = Math.abs(p);
  if (p === 0) return a === 0 || b === 0 ? 0 : NaN;
  if (!(magnitude >= EXACT_PRODUCT.low && magnitude <= EXACT_PRODUCT.high) || Math.abs(a) > EXACT_PRODUCT.factor || Math.abs(b) > EXACT_PRODUCT.factor) return NaN;
  return twoProductError(a, b, p);
}

/**
 * Dekker's TwoProduct with Veltkamp's split: a·b − p for p = fl(a·b), exact only inside EXACT_PRODUCT's
 * range, which the caller checks (productError for one product, dotEnclosure once for a whole sum).
 */
export function twoProductError(a: number, b: number, p: number): number {
  let t = SPLITTER * a;
  const aHigh = t - (t - a);
  const aLow = a - aHigh;
  t = SPLITTER * b;
  const bHigh = t - (t - b);
  const bLow = b - bHigh;
  return aLow * bLow - (((p - aHigh * bHigh) - aLow * bHigh) - aHigh * bLow);
}

/** a + b − s exactly for s = fl(a + b) (Knuth's TwoSum; exact whenever s is finite). */
export function sumError(a: number, b: number, s: number): number {
  const bVirtual = s - a;
  return a - (s - bVirtual) + (b - bVirtual);
}

/** r rounded so that the exact value r + error lies at or below the result (error NaN: unknown). */
function up(r: number, error: number): number {
  if (r === -Infinity) return -Number.MAX_VALUE; // a finite exact value that overflowed downward
  return error > 0 || error !== error ? nextUp(r) : r;
}

function down(r: number, error: number): number {
  if (r === Infinity) return Number.MAX_VALUE;
  return error < 0 || error !== error ? nextDown(r) : r;
}

export function addUp(a: number, b: number): number {
  const s = a + b;
  return Number.isFinite(s) ? up(s, sumError(a, b, s)) : up(s, NaN);
}

export function addDown(a: number, b: number): number {
  const s = a + b;
  return Number.isFinite(s) ? down(s, sumError(a, b, s)) : down(s, NaN);
}

export function subUp(a: number, b: number): number {
  return addUp(a, -b);
}

export function subDown(a: number, b: number): number {
  return addDown(a, -b);
}

export function mulUp(a: number, b: number): number {
  const p = a * b;
  return Number.isFinite(p) ? up(p, productError(a, b, p)) : up(p, NaN);
}

export function mulDown(a: number, b: number): number {
  const p = a * b;
  return Number.isFinite(p) ? down(p, productError(a, b, p)) : down(p, NaN);
}

/**
 * The sign of a/b − q for q = fl(a/b): the residual a − q·b = (a − p) − e with q·b = p + e exactly, and
 * a − p exact (q is within an ulp of a/b); its sign over b's. NaN where TwoProduct cannot promise it.
 */
function quotientError(a: number, b: number, q: number): number {
  if (q === 0 && a !== 0) return NaN;
  const p = q * b;
  const e = productError(q, b, p);
  if (e !== e) return NaN;
  const residual = a - p - e;
  return residual === 0 ? 0 : (residual > 0) === (b > 0) ? 1 : -1;
}

export function divUp(a: number, b: number): number {
  const q = a / b;
  return Number.isFinite(q) ? up(q, quotientError(a, b, q)) : up(q, NaN);
}

export function divDown(a: number, b: number): number {
  const q = a / b;
  return Number.isFinite(q) ? down(q, quotientError(a, b, q)) : down(q, NaN);
}

/** The sign of √x − s for s = fl(√x): that of x − s², computed exactly. */
function rootError(x: number, s: number): number {
  if (s === 0) return x === 0 ? 0 : NaN;
  const p = s * s;
  const e = productError(s, s, p);
  if (e !== e) return NaN;
  const residual = x - p - e;
  return residual === 0 ? 0 : residual > 0 ? 1 : -1;
}

export function sqrtUp(x: number): number {
  const s = Math.sqrt(x);
  return Number.isFinite(s) ? up(s, rootError(x, s)) : s;
}

/** √x rounded down; 0 for x ≤ 0 (the callers' x are squares and sums of squares, ≥ 0 in exact arithmetic). */
export function sqrtDown(x: number): number {
  if (!(x > 0)) return 0;
  const s = Math.sqrt(x);
  return Number.isFinite(s) ? Math.max(0, down(s, rootError(x, s))) : s;
}
