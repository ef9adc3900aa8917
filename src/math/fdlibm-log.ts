import { highWord, withHighWord } from "./float64-words.js";

/*
 * The natural logarithm of fdlibm 5.3 (e_log.c), in TypeScript.
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this software is freely granted, provided that this
 * notice is preserved.
 * ====================================================
 *
 * Why: ECMAScript does not specify Math.log to the last bit (docs/theory.md, "Data versions"), so a data set
 * drawn with it could change with the JavaScript engine. This function uses only +, −, ×, ÷ and the
 * float64's bits, which every engine computes the same, and it returns what V8's Math.log returned when
 * data version 1 was defined (Node 20; the tests hold a digest). Method: x = 2^k (1 + f) with
 * √2/2 < 1 + f < √2; log(1 + f) = 2s + 2s·R(s²) with s = f/(2 + f), R a minimax polynomial; then
 * log(x) = k·ln2_hi + (f − (hfsq − (s(hfsq + R) + k·ln2_lo))), hfsq = f²/2, each step in the order fdlibm
 * gives, so the rounding is the same.
 */
const LN2_HI = 6.93147180369123816490e-1; // 0x3FE62E42 FEE00000
const LN2_LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const TWO54 = 1.8014398509481984e16; // 2^54
const LG1 = 6.666666666666735130e-1; // 0x3FE55555 55555593
const LG2 = 3.999999999940941908e-1; // 0x3FD99999 9997FA04
const LG3 = 2.857142874366239149e-1; // 0x3FD24924 94229359
const LG4 = 2.222219843214978396e-1; // 0x3FCC71C5 1D8E78AF
const LG5 = 1.818357216161805012e-1; // 0x3FC74664 96CB03DE
const LG6 = 1.531383769920937332e-1; // 0x3FC39A09 D078C69F
const LG7 = 1.479819860511658591e-1; // 0x3FC2F112 DF3E5244

/** log(x), bit-identical on every engine. Special values as ECMAScript's Math.log (NaN, ±0, +∞, x < 0). */
export function fdlibmLog(x: number): number {
  if (!(x > 0) || x === Infinity) return Math.log(x); // NaN, ±0, negatives and +∞: results the spec fixes exactly
  let hx = highWord(x);
  let k = 0;
  if (hx < 0x00100000) {
    // subnormal: scale into the normal range
    k -= 54;
    x *= TWO54;
    hx = highWord(x);
  }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = withHighWord(x, hx | (i ^ 0x3ff00000)); // normalise x or x/2 into [√2/2, √2)
  k += i >> 20;
  const f = x - 1;
  const dk = k;
  if ((0x000fffff & (2 + hx)) < 3) {
    // −2^−20 ≤ f < 2^−20: a short series
    if (f === 0) return k === 0 ? 0 : dk * LN2_HI + dk * LN2_LO;
    const r = f * f * (0.5 - 0.33333333333333333 * f);
    return k === 0 ? f - r : dk * LN2_HI - (r - dk * LN2_LO - f);
  }
  const s = f / (2 + f);
  const z = s * s;
  let i2 = hx - 0x6147a;
  const w = z * z;
  const j = 0x6b851 - hx;
  const t1 = w * (LG2 + w * (LG4 + w * LG6));
  const t2 = z * (LG1 + w * (LG3 + w * (LG5 + w * LG7)));
  i2 |= j;
  const r = t2 + t1;
  if (i2 > 0) {
    const hfsq = 0.5 * f * f;
    return k === 0 ? f - (hfsq - s * (hfsq + r)) : dk * LN2_HI - (hfsq - (s * (hfsq + r) + dk * LN2_LO) - f);
  }
  return k === 0 ? f - s * (f - r) : dk * LN2_HI - (s * (f - r) - dk * LN2_LO - f);
}

