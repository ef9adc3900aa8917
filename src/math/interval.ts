import type { Enclosure } from "./dot-enclosure.js";
import { addDown, addUp, divDown, divUp, mulDown, mulUp, sqrtDown, sqrtUp, subDown, subUp } from "./outward-rounding.js";

/**
 * Interval arithmetic on Enclosures, each end rounded outward (outward-rounding.ts): the exact result of
 * the operation on any reals inside the operands lies inside the result. What the bounds are computed in,
 * so that each reported bound is the upper end of an interval holding the true value.
 */
export function point(value: number): Enclosure {
  return { lo: value, hi: value };
}

export function add(x: Enclosure, y: Enclosure): Enclosure {
  return { lo: addDown(x.lo, y.lo), hi: addUp(x.hi, y.hi) };
}

export function sub(x: Enclosure, y: Enclosure): Enclosure {
  return { lo: subDown(x.lo, y.hi), hi: subUp(x.hi, y.lo) };
}

export function mul(x: Enclosure, y: Enclosure): Enclosure {
  // A point factor (the common case: a data value, η) needs two corners, chosen by its sign.
  if (y.lo === y.hi) return y.lo >= 0 ? { lo: mulDown(x.lo, y.lo), hi: mulUp(x.hi, y.lo) } : { lo: mulDown(x.hi, y.lo), hi: mulUp(x.lo, y.lo) };
  if (x.lo === x.hi) return mul(y, x);
  // The four corner products, without an array of pairs (this runs for every component of a bound).
  const lo = Math.min(mulDown(x.lo, y.lo), mulDown(x.lo, y.hi), mulDown(x.hi, y.lo), mulDown(x.hi, y.hi));
  const hi = Math.max(mulUp(x.lo, y.lo), mulUp(x.lo, y.hi), mulUp(x.hi, y.lo), mulUp(x.hi, y.hi));
  return { lo, hi };
}

/** x/y; everything (−∞, ∞) when y may be 0. */
export function div(x: Enclosure, y: Enclosure): Enclosure {
  if (!(y.lo > 0 || y.hi < 0)) return { lo: -Infinity, hi: Infinity };
  if (y.lo === y.hi) return y.lo > 0 ? { lo: divDown(x.lo, y.lo), hi: divUp(x.hi, y.lo) } : { lo: divDown(x.hi, y.lo), hi: divUp(x.lo, y.lo) };
  const lo = Math.min(divDown(x.lo, y.lo), divDown(x.lo, y.hi), divDown(x.hi, y.lo), divDown(x.hi, y.hi));
  const hi = Math.max(divUp(x.lo, y.lo), divUp(x.lo, y.hi), divUp(x.hi, y.lo), divUp(x.hi, y.hi));
  return { lo, hi };
}

/** x² (not x·x: both factors are the same real, so the square of an interval around 0 starts at 0). */
export function square(x: Enclosure): Enclosure {
  if (x.lo >= 0) return { lo: mulDown(x.lo, x.lo), hi: mulUp(x.hi, x.hi) };
  if (x.hi <= 0) return { lo: mulDown(x.hi, x.hi), hi: mulUp(x.lo, x.lo) };
  const largest = Math.max(-x.lo, x.hi);
  return { lo: 0, hi: mulUp(largest, largest) };
}

/** √x of a quantity ≥ 0 in exact arithmetic (a negative lower end, from rounding, is taken as 0). */
export function sqrt(x: Enclosure): Enclosure {
  return { lo: sqrtDown(x.lo), hi: sqrtUp(Math.max(0, x.hi)) };
}

/** The interval of a quantity known to be ≥ 0 (Cauchy–Schwarz, a norm): its ends clamped at 0. */
export function nonNegative(x: Enclosure): Enclosure {
  return { lo: Math.max(0, x.lo), hi: Math.max(0, x.hi) };
}
