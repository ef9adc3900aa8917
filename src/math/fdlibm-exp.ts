import { fromWords, highWord } from "./float64-words.js";

/*
 * e^x as fdlibm 5.3 computes it (e_exp.c), in TypeScript, with V8's one amendment (exp(1) = E exactly).
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this software is freely granted, provided that this
 * notice is preserved.
 * ====================================================
 *
 * Why: ECMAScript leaves Math.exp's last bit to each engine (docs/theory.md, "Data versions"); data version 2's
 * ziggurat tables and its wedge test need an exp that every engine computes the same. Method: x = k·ln2 + r
 * with |r| ≤ ln2/2 (r as hi − lo); exp(r) = 1 + r + r·c(r)/(2 − c(r)) with c(r) = r − r²·P(r²), a minimax
 * polynomial; then exp(x) = 2^k·exp(r). Every step in fdlibm's order, so the rounding is the same; it
 * equals Node 20's and Node 24's Math.exp on every input the tests try.
 */
const O_THRESHOLD = 7.09782712893383973096e2; // 0x40862E42 FEFA39EF
const U_THRESHOLD = -7.45133219101941108420e2; // 0xC0874910 D52D3051
const LN2_HI = 6.93147180369123816490e-1; // 0x3FE62E42 FEE00000
const LN2_LO = 1.90821492927058770002e-10; // 0x3DEA39EF 35793C76
const INV_LN2 = 1.44269504088896338700; // 0x3FF71547 652B82FE
const P1 = 1.66666666666666019037e-1; // 0x3FC55555 5555553E
const P2 = -2.77777777770155933842e-3; // 0xBF66C16C 16BEBD93
const P3 = 6.61375632143793436117e-5; // 0x3F11566A AF25DE2C
const P4 = -1.65339022054652515390e-6; // 0xBEBBBD41 C5D26BF1
const P5 = 4.13813679705723846039e-8; // 0x3E663769 72BEA4D0
const E = 2.718281828459045; // 0x4005BF0A 8B145769
const TWO_M1000 = 9.33263618503218878990e-302; // 2^−1000
const TWO_1023 = 8.988465674311579539e307; // 2^1023

/** e^x, bit-identical on every engine. */
export function fdlibmExp(x: number): number {
  if (Number.isNaN(x)) return NaN;
  const hx = highWord(x);
  const negative = hx < 0;
  const ax = hx & 0x7fffffff; // high word of |x|
  if (ax >= 0x40862e42) {
    // |x| ≥ 709.78…
    if (ax >= 0x7ff00000) return negative ? 0 : Infinity; // ±∞ (NaN was handled above)
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0;
  }
  let hi = 0;
  let lo = 0;
  let k = 0;
  if (ax > 0x3fd62e42) {
    // |x| > ln2/2: reduce
    if (ax < 0x3ff0a2b2) {
      // and |x| < 1.5·ln2
      if (x === 1) return E;
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
      hi = x - k * LN2_HI; // exact: k·LN2_HI has trailing zeros
      lo = k * LN2_LO;
    }
    x = hi - lo;
  } else if (ax < 0x3e300000) {
    // |x| < 2^−28
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k === 0) return 1 - ((x * c) / (c - 2) - x);
  const y = 1 - (lo - (x * c) / (2 - c) - hi);
  if (k >= -1021) {
    if (k === 1024) return y * 2 * TWO_1023;
    return y * fromWords(0x3ff00000 + (k << 20), 0);
  }
  return y * fromWords(0x3ff00000 + ((k + 1000) << 20), 0) * TWO_M1000;
}
