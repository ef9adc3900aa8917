import { clearLowWord, fromWords, highWord, lowWord, withHighWord } from "./float64-words.js";

/*
 * x^y as fdlibm 5.3 computes it (e_pow.c), in TypeScript; V8's Math.pow was this algorithm up to
 * Node 22 ("legacy" pow).
 * ====================================================
 * Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
 * Developed at SunPro, a Sun Microsystems, Inc. business.
 * Permission to use, copy, modify, and distribute this software is freely granted, provided that this
 * notice is preserved.
 * ====================================================
 *
 * Why: ECMAScript does not specify Math.pow to the last bit, and it changed: Node 24's V8 calls the C
 * library's pow, which differs from Node 20's in the last bit of Math.pow(u, 1/7) for 8.5 % of uniform u.
 * The planted generator's radial draw used it, so run 200 of experiments/quick.json drew a different
 * data set under Node 24 (docs/theory.md, "Data versions": a data version stays reproducible bit for bit).
 * This function uses only +, −, ×, ÷, √ and the float64's bits, which every engine computes the same.
 *
 * Method: x = 2^n (1 + f); log2(x) = t1 + t2 in extra precision (t1 with its low word zero), from
 * s = (x − 1)/(x + 1) or (x − 1.5)/(x + 1.5) and a minimax polynomial; y·log2(x) = n' + y' with
 * |y'| ≤ 1/2, in two pieces; then x^y = 2^n' · exp(y'·ln2) by exp's rational approximation. Every step
 * is fdlibm's, in its order, so every rounding is the same.
 */
const TWO53 = 9007199254740992; // 2^53
const DP_H = 5.84962487220764160156e-1; // log2(1.5) high: 0x3FE2B803 40000000
const DP_L = 1.35003920212974897128e-8; // log2(1.5) tail: 0x3E4CFDEB 43CFD006
// (3/2)(log(x) − 2s − (2/3)s³), a polynomial in s²
const L1 = 5.99999999999994648725e-1; // 0x3FE33333 33333303
const L2 = 4.28571428578550184252e-1; // 0x3FDB6DB6 DB6FABFF
const L3 = 3.33333329818377432918e-1; // 0x3FD55555 518F264D
const L4 = 2.72728123808534006489e-1; // 0x3FD17460 A91D4101
const L5 = 2.30660745775561754067e-1; // 0x3FCD864A 93C9DB65
const L6 = 2.06975017800338417784e-1; // 0x3FCA7E28 4A454EEF
// exp's rational approximation
const P1 = 1.66666666666666019037e-1; // 0x3FC55555 5555553E
const P2 = -2.77777777770155933842e-3; // 0xBF66C16C 16BEBD93
const P3 = 6.61375632143793436117e-5; // 0x3F11566A AF25DE2C
const P4 = -1.65339022054652515390e-6; // 0xBEBBBD41 C5D26BF1
const P5 = 4.13813679705723846039e-8; // 0x3E663769 72BEA4D0
const LG2 = 6.93147180559945286227e-1; // ln 2: 0x3FE62E42 FEFA39EF
const LG2_H = 6.93147182464599609375e-1; // 0x3FE62E43 00000000
const LG2_L = -1.90465429995776804525e-9; // 0xBE205C61 0CA86C39
const OVT = 8.0085662595372944372e-17; // −(1024 − log2(largest + ½ ulp))
const CP = 9.61796693925975554329e-1; // 2/(3 ln 2): 0x3FEEC709 DC3A03FD
const CP_H = 9.61796700954437255859e-1; // 0x3FEEC709 E0000000
const CP_L = -7.02846165095275826516e-9; // 0xBE3E2FE0 145B01F5
const IVLN2 = 1.44269504088896338700; // 1/ln 2: 0x3FF71547 652B82FE
const IVLN2_H = 1.44269502162933349609; // 0x3FF71547 60000000
const IVLN2_L = 1.92596299112661746887e-8; // 0x3E54AE0B F85DDF44

/**
 * x^y, bit-identical on every engine, equal to Node 20's Math.pow. Inputs whose result ECMAScript fixes
 * exactly (NaN, ±0, ±∞, y = 0, a negative x with a non-integer y) go to `**`; a negative x with an
 * integer y is ±|x|^y, as in fdlibm.
 */
export function fdlibmPow(x: number, y: number): number {
  if (y === 0 || x === 0 || !Number.isFinite(x) || !Number.isFinite(y)) return x ** y;
  if (x > 0) return powOfPositive(x, y);
  if (!Number.isInteger(y)) return NaN;
  const magnitude = powOfPositive(-x, y);
  return Math.abs(y) < TWO53 && y % 2 !== 0 ? -magnitude : magnitude;
}

/** fdlibm's pow for a finite x > 0 and a finite y ≠ 0. */
function powOfPositive(x: number, y: number): number {
  const hx = highWord(x);
  const lx = lowWord(x);
  const hy = highWord(y);
  const ly = lowWord(y);
  const iy = hy & 0x7fffffff;
  if (ly === 0) {
    if (iy === 0x3ff00000) return hy < 0 ? 1 / x : x; // y = ±1
    if (hy === 0x40000000) return x * x; // y = 2
    if (hy === 0x3fe00000) return Math.sqrt(x); // y = 1/2
  }
  if (hx === 0x3ff00000 && lx === 0) return 1; // x = 1

  let t1: number;
  let t2: number;
  if (iy > 0x41e00000) {
    // |y| > 2^31: over- or underflow unless x is within 2^−20 of 1
    if (iy > 0x43f00000) {
      if (hx <= 0x3fefffff) return hy < 0 ? Infinity : 0;
      if (hx >= 0x3ff00000) return hy > 0 ? Infinity : 0;
    }
    if (hx < 0x3fefffff) return hy < 0 ? Infinity : 0;
    if (hx > 0x3ff00000) return hy > 0 ? Infinity : 0;
    // log(x) by x − x²/2 + x³/3 − x⁴/4 (t = x − 1 has 20 trailing zeros)
    const t = x - 1;
    const w = t * t * (0.5 - t * (0.3333333333333333333333 - t * 0.25));
    const u = IVLN2_H * t;
    const v = t * IVLN2_L - w * IVLN2;
    t1 = clearLowWord(u + v);
    t2 = v - (t1 - u);
  } else {
    let ax = x;
    let ix = hx;
    let n = 0;
    if (ix < 0x00100000) {
      // subnormal x
      ax *= TWO53;
      n -= 53;
      ix = highWord(ax);
    }
    n += (ix >> 20) - 0x3ff;
    const j = ix & 0x000fffff;
    ix = j | 0x3ff00000; // the significand, in [1, 2)
    let k: number;
    if (j <= 0x3988e) k = 0; // below √(3/2)
    else if (j < 0xbb67a) k = 1; // below √3
    else {
      k = 0;
      n += 1;
      ix -= 0x00100000;
    }
    ax = withHighWord(ax, ix);
    const bp = k === 0 ? 1 : 1.5;
    const dpH = k === 0 ? 0 : DP_H;
    const dpL = k === 0 ? 0 : DP_L;

    // ss = s_h + s_l = (ax − bp)/(ax + bp)
    let u = ax - bp;
    let v = 1 / (ax + bp);
    const ss = u * v;
    const sH = clearLowWord(ss);
    let tH = fromWords(((ix >> 1) | 0x20000000) + 0x00080000 + (k << 18), 0); // ax + bp, high part
    let tL = ax - (tH - bp);
    const sL = v * (u - sH * tH - sH * tL);
    // log(ax)
    let s2 = ss * ss;
    let r = s2 * s2 * (L1 + s2 * (L2 + s2 * (L3 + s2 * (L4 + s2 * (L5 + s2 * L6)))));
    r += sL * (sH + ss);
    s2 = sH * sH;
    tH = clearLowWord(3 + s2 + r);
    tL = r - (tH - 3 - s2);
    // u + v = ss(1 + …)
    u = sH * tH;
    v = sL * tH + tL * ss;
    // 2/(3 ln 2) (ss + …)
    const pH = clearLowWord(u + v);
    const pL = v - (pH - u);
    const zH = CP_H * pH;
    const zL = CP_L * pH + pL * CP + dpL;
    // log2(ax) = n + dp_h + z_h + z_l
    t1 = clearLowWord(zH + zL + dpH + n);
    t2 = zL - (t1 - n - dpH - zH);
  }

  // (y1 + y2)(t1 + t2), y1 = y with its low word zero
  const y1 = clearLowWord(y);
  const pL = (y - y1) * t1 + y * t2;
  let pH = y1 * t1;
  let z = pL + pH;
  let j = highWord(z);
  const i = lowWord(z);
  if (j >= 0x40900000) {
    // z ≥ 1024
    if (j !== 0x40900000 || i !== 0) return Infinity;
    if (pL + OVT > z - pH) return Infinity;
  } else if ((j & 0x7fffffff) >= 0x4090cc00) {
    // z ≤ −1075
    if (j >>> 0 !== 0xc090cc00 || i !== 0) return 0;
    if (pL <= z - pH) return 0;
  }

  // 2^(p_h + p_l): split off the integer n nearest to z
  const iz = j & 0x7fffffff;
  let k = (iz >> 20) - 0x3ff;
  let n = 0;
  if (iz > 0x3fe00000) {
    n = j + (0x00100000 >> (k + 1));
    k = ((n & 0x7fffffff) >> 20) - 0x3ff;
    const t = fromWords(n & ~(0x000fffff >> k), 0);
    n = ((n & 0x000fffff) | 0x00100000) >> (20 - k);
    if (j < 0) n = -n;
    pH -= t;
  }
  let t = clearLowWord(pL + pH);
  const u = t * LG2_H;
  const v = (pL - (t - pH)) * LG2 + t * LG2_L;
  z = u + v;
  const w = v - (z - u);
  t = z * z;
  const t1e = z - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  const r = (z * t1e) / (t1e - 2 - (w + z * w));
  z = 1 - (r - z);
  j = highWord(z) + (n << 20);
  if (j >> 20 <= 0) return scaleSubnormal(z, n);
  return withHighWord(z, j);
}

/** z·2^n rounded once, for a result below the normal range (fdlibm's scalbn on that path). */
function scaleSubnormal(z: number, n: number): number {
  const hz = highWord(z);
  const k = ((hz & 0x7ff00000) >> 20) + n;
  if (k <= -54) return 0;
  // z with exponent k + 54 (exact), then one rounding by 2^−54
  return withHighWord(z, (hz & 0x800fffff) | ((k + 54) << 20)) * 5.55111512312578270212e-17;
}
