/** True for the whole numbers 1, 2, 4, 8, … */
export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n >= 1 && (n & (n - 1)) === 0;
}

/** True for 2^k with k any integer (…, 0.25, 0.5, 1, 2, …): the η whose sums float64 keeps exact. */
export function isBinaryPower(value: number): boolean {
  return value > 0 && value === 2 ** Math.round(Math.log2(value));
}
