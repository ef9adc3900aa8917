// AssemblyScript, compiled into the kernel module (perceptron-epoch.ts exports it); used by
// ../../generators/planted-draw.ts.
//
// Data versions 2 and 3's planted data set (d ≥ 2), drawn and placed in one call: bit-identical to the
// TypeScript generator (../../generators/planted.ts, placeVersion2, with ../../random/ziggurat-normal.ts and
// ../../random/xoshiro128.ts), which stays the reference and the fallback. Every draw in the same order, every
// value by the same operations in the same order (a product, then a sum, never fused: WebAssembly has no
// implicit FMA; √ is correctly rounded in both; exp and log are fdlibm's, ported line for line in fdlibm.ts).
//
// Memory, laid out by the caller: the generator's state (4 u32, read at the start and written back at the
// end, for the draws that follow: label noise), x (n × d f64), w (d), v0 (d), y (n i8), and a scratch of
// 4n f64 (two extra normals a row, then each row's z·w and ‖z‖²). The ziggurat's tables live in this module's
// static data, written once by the caller (zigguratTables).

import { fdlibmExp, fdlibmLog } from "./fdlibm";
import { rowDotsAndSquares } from "./planted-rows";

/** X[0..256], X[i+1]/X[i] (256) and X[i]² (257): the layers of ../../random/ziggurat-normal.ts. */
const TABLES: usize = memory.data(<i32>(257 + 256 + 257) << 3, 16);
const X_AT: usize = TABLES;
const INNER_AT: usize = TABLES + (257 << 3);
const X2_AT: usize = INNER_AT + (256 << 3);

/** Where the caller writes the tables (f64: X, then INNER, then X2). */
export function zigguratTables(): usize {
  return TABLES;
}

const R: f64 = 3.6541528853610088;
const TWO_TO_MINUS_52: f64 = 2.220446049250313e-16;
const TWO_TO_MINUS_53: f64 = 1.1102230246251565e-16;

// xoshiro128**'s state while a call runs (the fast loop keeps it in locals and stores it around its slow path).
let s0: u32 = 0;
let s1: u32 = 0;
let s2: u32 = 0;
let s3: u32 = 0;

@inline function next32(): u32 {
  const a = s1;
  const result = rotl<u32>(a * 5, 7) * 9;
  const t = a << 9;
  s2 ^= s0;
  s3 ^= a;
  s1 = a ^ s2;
  s0 ^= s3;
  s2 ^= t;
  s3 = rotl<u32>(s3, 11);
  return result;
}

/** Xoshiro128.nextDouble: the top 21 bits of one output, then all 32 of the next, × 2⁻⁵³. */
@inline function nextDouble(): f64 {
  const high = next32() >>> 11;
  const low = next32();
  return <f64>((<u64>high << 32) | <u64>low) * TWO_TO_MINUS_53;
}

@inline function tableX(i: usize): f64 {
  return load<f64>(X_AT + (i << 3));
}

/** ZigguratNormal.finish: a draw (layer i, u) that missed its inner rectangle. */
function finish(i: usize, u: f64): f64 {
  while (true) {
    if (i == 0) return tail(u < 0);
    const x = u * tableX(i);
    const x2 = x * x;
    const f0 = fdlibmExp(-0.5 * (load<f64>(X2_AT + (i << 3)) - x2));
    const f1 = fdlibmExp(-0.5 * (load<f64>(X2_AT + ((i + 1) << 3)) - x2));
    if (f1 + nextDouble() * (f0 - f1) < 1) return x;
    const a = next32();
    const b = next32();
    i = <usize>(a & 0xff);
    u = <f64>((<u64>(a >>> 11) << 32) | <u64>b) * TWO_TO_MINUS_52 - 1;
    if (Math.abs(u) < load<f64>(INNER_AT + (i << 3))) return u * tableX(i);
  }
  return unreachable();
}

/** ZigguratNormal.tail: beyond R, Marsaglia's exponential rejection. */
function tail(negative: bool): f64 {
  let x: f64;
  let y: f64;
  do {
    x = fdlibmLog(1 - nextDouble()) / R;
    y = fdlibmLog(1 - nextDouble());
  } while (-2 * y < x * x);
  return negative ? x - R : R - x;
}

/** ZigguratNormal.fill: `count` standard normals into out (f64), the fast path with the state in locals. */
function fillNormals(out: usize, count: i32): void {
  let a0 = s0;
  let a1 = s1;
  let a2 = s2;
  let a3 = s3;
  const end = out + (<usize>count << 3);
  let at = out;
  while (at < end) {
    let t = a1 << 9;
    const a = rotl<u32>(a1 * 5, 7) * 9;
    a2 ^= a0;
    a3 ^= a1;
    a1 ^= a2;
    a0 ^= a3;
    a2 ^= t;
    a3 = rotl<u32>(a3, 11);
    t = a1 << 9;
    const b = rotl<u32>(a1 * 5, 7) * 9;
    a2 ^= a0;
    a3 ^= a1;
    a1 ^= a2;
    a0 ^= a3;
    a2 ^= t;
    a3 = rotl<u32>(a3, 11);
    const i = <usize>(a & 0xff);
    const u = <f64>((<u64>(a >>> 11) << 32) | <u64>b) * TWO_TO_MINUS_52 - 1;
    if (Math.abs(u) < load<f64>(INNER_AT + (i << 3))) {
      store<f64>(at, u * tableX(i));
    } else {
      s0 = a0;
      s1 = a1;
      s2 = a2;
      s3 = a3;
      store<f64>(at, finish(i, u));
      a0 = s0;
      a1 = s1;
      a2 = s2;
      a3 = s3;
    }
    at += 8;
  }
  s0 = a0;
  s1 = a1;
  s2 = a2;
  s3 = a3;
}

/** placeVersion2's distance: uniform on [−δ, 0) ∪ [γ, t_max]. */
@inline function distance(gamma: f64, tMax: f64, overlap: f64, uniform: f64): f64 {
  const s = uniform * (tMax - gamma + overlap);
  return s < overlap ? s - overlap : gamma + (s - overlap);
}

/**
 * placeVersion2 for d ≥ 2, from the generator state at `state`: w (a random unit vector), v0 (a random unit
 * vector orthogonal to it), the support pair's rows, x and y. Writes the state after the last draw back.
 */
export function plantedDraw(
  n: i32,
  d: i32,
  gamma: f64,
  r: f64,
  b: f64,
  overlap: f64,
  state: usize,
  x: usize,
  w: usize,
  v0: usize,
  y: usize,
  scratch: usize,
): void {
  s0 = load<u32>(state);
  s1 = load<u32>(state, 4);
  s2 = load<u32>(state, 8);
  s3 = load<u32>(state, 12);
  const bytes = <usize>d << 3;
  // w: d normals, again while all zero; then normalised.
  let norm2: f64 = 0;
  while (norm2 == 0) {
    fillNormals(w, d);
    norm2 = 0;
    for (let j: usize = 0; j < bytes; j += 8) norm2 += load<f64>(w + j) * load<f64>(w + j);
  }
  let inv = 1 / Math.sqrt(norm2);
  for (let j: usize = 0; j < bytes; j += 8) store<f64>(w + j, load<f64>(w + j) * inv);
  // v0: d normals made orthogonal to w, again while too parallel to it; then normalised.
  for (;;) {
    fillNormals(v0, d);
    let dot: f64 = 0;
    for (let j: usize = 0; j < bytes; j += 8) dot += load<f64>(v0 + j) * load<f64>(w + j);
    norm2 = 0;
    for (let j: usize = 0; j < bytes; j += 8) {
      const value = load<f64>(v0 + j) - dot * load<f64>(w + j);
      store<f64>(v0 + j, value);
      norm2 += value * value;
    }
    if (norm2 > 1e-12) {
      inv = 1 / Math.sqrt(norm2);
      for (let j: usize = 0; j < bytes; j += 8) store<f64>(v0 + j, load<f64>(v0 + j) * inv);
      break;
    }
  }
  const positive = <i32>Math.floor(nextDouble() * <f64>n);
  let negative = <i32>Math.floor(nextDouble() * <f64>(n - 1));
  if (negative >= positive) negative++;
  // Every row's normals, then two more a row, then each row's z·w and ‖z‖².
  const extra = scratch;
  const dots = scratch + (<usize>n << 4);
  const squares = dots + (<usize>n << 3);
  fillNormals(x, n * d);
  fillNormals(extra, 2 * n);
  rowDotsAndSquares(n, d, x, w, dots, squares);
  let alongPositive: f64 = 0;
  let alongNegative: f64 = 0;
  let roomPositive: f64 = 0;
  let roomNegative: f64 = 0;
  for (let i = 0; i < n; i++) {
    const support = i == positive || i == negative;
    const label: f64 = i == positive ? 1 : i == negative ? -1 : nextDouble() < 0.5 ? 1 : -1;
    const t = support ? gamma : distance(gamma, r + label * b, overlap, nextDouble());
    const a = label * t - b;
    const room = Math.sqrt(Math.max(0, r * r - a * a));
    store<i8>(y + <usize>i, <i8>label);
    const row = x + <usize>i * bytes;
    if (support) {
      if (i == positive) {
        alongPositive = a;
        roomPositive = room;
      } else {
        alongNegative = a;
        roomNegative = room;
      }
      continue;
    }
    // x = (a − s z·w) w + s z, with s = room/√(‖z‖² − (z·w)² + e₁² + e₂²).
    const at = <usize>i << 3;
    const dot = load<f64>(dots + at);
    const e1 = load<f64>(extra + (at << 1));
    const e2 = load<f64>(extra + (at << 1) + 8);
    const rowNorm2 = Math.max(0, load<f64>(squares + at) - dot * dot) + e1 * e1 + e2 * e2;
    const scale = rowNorm2 > 0 ? room / Math.sqrt(rowNorm2) : 0;
    const base = a - scale * dot;
    for (let j: usize = 0; j < bytes; j += 8) store<f64>(row + j, base * load<f64>(w + j) + scale * load<f64>(row + j));
  }
  // The support pair: along w at distance γ, and along v0 to norm R.
  const rowPositive = x + <usize>positive * bytes;
  const rowNegative = x + <usize>negative * bytes;
  for (let j: usize = 0; j < bytes; j += 8) {
    store<f64>(rowPositive + j, alongPositive * load<f64>(w + j) + roomPositive * load<f64>(v0 + j));
    store<f64>(rowNegative + j, alongNegative * load<f64>(w + j) + roomNegative * load<f64>(v0 + j));
  }
  store<u32>(state, s0);
  store<u32>(state, s1, 4);
  store<u32>(state, s2, 8);
  store<u32>(state, s3, 12);
}
