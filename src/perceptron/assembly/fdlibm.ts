// AssemblyScript, compiled into the kernel module (perceptron-epoch.ts exports them for the tests).
//
// fdlibm 5.3's exp and log, line for line as src/math/fdlibm-exp.ts and src/math/fdlibm-log.ts write them
// in TypeScript (same constants, same operations in the same order, so the same roundings): the ziggurat of
// planted-draw.ts needs them for its rare wedge and tail draws, bit-identical to the TypeScript generator.
// test/generators/planted-draw.test.ts compares both on millions of arguments.
// ====================================================
// Copyright (C) 1993 by Sun Microsystems, Inc. All rights reserved.
// Developed at SunPro, a Sun Microsystems, Inc. business.
// Permission to use, copy, modify, and distribute this software is freely granted, provided that this
// notice is preserved.
// ====================================================

const O_THRESHOLD: f64 = 7.09782712893383973096e2;
const U_THRESHOLD: f64 = -7.45133219101941108420e2;
const LN2_HI: f64 = 6.93147180369123816490e-1;
const LN2_LO: f64 = 1.90821492927058770002e-10;
const INV_LN2: f64 = 1.4426950408889633870;
const P1: f64 = 1.66666666666666019037e-1;
const P2: f64 = -2.77777777770155933842e-3;
const P3: f64 = 6.61375632143793436117e-5;
const P4: f64 = -1.65339022054652515390e-6;
const P5: f64 = 4.13813679705723846039e-8;
const E: f64 = 2.718281828459045;
const TWO_M1000: f64 = 9.3326361850321887899e-302;
const TWO_1023: f64 = 8.988465674311579539e307;

@inline function highWord(x: f64): i32 {
  return <i32>(reinterpret<u64>(x) >>> 32);
}

@inline function fromHighWord(high: i32): f64 {
  return reinterpret<f64>(<u64>(<u32>high) << 32);
}

/** e^x as fdlibmExp computes it. */
export function fdlibmExp(x: f64): f64 {
  if (isNaN(x)) return NaN;
  const hx = highWord(x);
  const negative = hx < 0;
  const ax = hx & 0x7fffffff;
  if (ax >= 0x40862e42) {
    if (ax >= 0x7ff00000) return negative ? 0 : Infinity;
    if (x > O_THRESHOLD) return Infinity;
    if (x < U_THRESHOLD) return 0;
  }
  let hi: f64 = 0;
  let lo: f64 = 0;
  let k: i32 = 0;
  if (ax > 0x3fd62e42) {
    if (ax < 0x3ff0a2b2) {
      if (x == 1) return E;
      hi = negative ? x + LN2_HI : x - LN2_HI;
      lo = negative ? -LN2_LO : LN2_LO;
      k = negative ? -1 : 1;
    } else {
      k = <i32>Math.trunc(INV_LN2 * x + (negative ? -0.5 : 0.5));
      hi = x - <f64>k * LN2_HI;
      lo = <f64>k * LN2_LO;
    }
    x = hi - lo;
  } else if (ax < 0x3e300000) {
    return 1 + x;
  }
  const t = x * x;
  const c = x - t * (P1 + t * (P2 + t * (P3 + t * (P4 + t * P5))));
  if (k == 0) return 1 - ((x * c) / (c - 2) - x);
  const y = 1 - (lo - (x * c) / (2 - c) - hi);
  if (k >= -1021) {
    if (k == 1024) return y * 2 * TWO_1023;
    return y * fromHighWord(0x3ff00000 + (k << 20));
  }
  return y * fromHighWord(0x3ff00000 + ((k + 1000) << 20)) * TWO_M1000;
}

const TWO54: f64 = 1.8014398509481984e16;
const LG1: f64 = 6.666666666666735130e-1;
const LG2: f64 = 3.999999999940941908e-1;
const LG3: f64 = 2.857142874366239149e-1;
const LG4: f64 = 2.222219843214978396e-1;
const LG5: f64 = 1.818357216161805012e-1;
const LG6: f64 = 1.531383769920937332e-1;
const LG7: f64 = 1.479819860511658591e-1;

/** log(x) as fdlibmLog computes it (its special values as ECMAScript's Math.log). */
export function fdlibmLog(x: f64): f64 {
  if (isNaN(x) || x < 0) return NaN;
  if (x == 0) return -Infinity;
  if (x == Infinity) return Infinity;
  let hx = highWord(x);
  let k: i32 = 0;
  if (hx < 0x00100000) {
    k -= 54;
    x *= TWO54;
    hx = highWord(x);
  }
  k += (hx >> 20) - 1023;
  hx &= 0x000fffff;
  const i = (hx + 0x95f64) & 0x100000;
  x = reinterpret<f64>((reinterpret<u64>(x) & 0xffffffff) | (<u64>(<u32>(hx | (i ^ 0x3ff00000))) << 32));
  k += i >> 20;
  const f = x - 1;
  const dk = <f64>k;
  if ((0x000fffff & (2 + hx)) < 3) {
    if (f == 0) return k == 0 ? 0 : dk * LN2_HI + dk * LN2_LO;
    const r = f * f * (0.5 - 0.33333333333333333 * f);
    return k == 0 ? f - r : dk * LN2_HI - (r - dk * LN2_LO - f);
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
    return k == 0 ? f - (hfsq - s * (hfsq + r)) : dk * LN2_HI - (hfsq - (s * (hfsq + r) + dk * LN2_LO) - f);
  }
  return k == 0 ? f - s * (f - r) : dk * LN2_HI - (s * (f - r) - dk * LN2_LO - f);
}
