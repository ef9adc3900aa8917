import { fdlibmExp } from "../math/fdlibm-exp.js";
import { fdlibmLog } from "../math/fdlibm-log.js";
import type { Xoshiro128 } from "./xoshiro128.js";

/*
 * Standard normal deviates by the ziggurat method, as Doornik formulates it ("An improved ziggurat method
 * to generate normal random samples", 2005: ZIGNOR), with 256 layers (Marsaglia and Tsang's R and V for
 * 256). The density's upper half is covered by 256 layers of equal area V: the bottom one (a rectangle
 * up to R and the tail beyond it) and 255 rectangles of widths X[1] = R > X[2] > … > X[256] = 0. A draw
 * picks a layer i and a u in (−1, 1): inside the layer's inner rectangle (|u| < X[i+1]/X[i], about 99 %
 * of draws) u·X[i] is the answer at once; otherwise the wedge is accepted by comparing with the density
 * (exp), and the bottom layer's overhang draws from the tail beyond R by Marsaglia's exponential
 * rejection. The result is exactly normal up to float64's resolution: the method rejects, it does not
 * approximate. Each fast draw takes two 32-bit outputs: 8 bits for the layer, 53 for u.
 *
 * Engine independence (docs/theory.md, "Data versions"): the tables and the rare exp/log of the wedge and the
 * tail use fdlibmExp and fdlibmLog; everything else is +, −, ×, ÷, √ and integer arithmetic.
 */
const LAYERS = 256;
const R = 3.6541528853610088;
const V = 4.92867323399e-3;

/** 2⁻⁵²: u's 53 bits scaled by a multiplication, exact like the division by 2⁵² it replaces (a power of two) and cheaper. */
const TWO_TO_MINUS_52 = 2.220446049250313e-16;

/** X[i]: the right edge of layer i (X[0] = V/f(R), the bottom layer's virtual width; X[256] = 0). */
const X = new Float64Array(LAYERS + 1);
/** X[i+1]/X[i]: the share of layer i that lies under the density for sure. */
const INNER = new Float64Array(LAYERS);
/** X[i]²: for the wedge test. */
const X2 = new Float64Array(LAYERS + 1);
{
  let f = fdlibmExp(-0.5 * R * R);
  X[0] = V / f;
  X[1] = R;
  for (let i = 2; i < LAYERS; i++) {
    X[i] = Math.sqrt(-2 * fdlibmLog(V / X[i - 1]! + f));
    f = fdlibmExp(-0.5 * X[i]! * X[i]!);
  }
  X[LAYERS] = 0;
  for (let i = 0; i < LAYERS; i++) INNER[i] = X[i + 1]! / X[i]!;
  for (let i = 0; i <= LAYERS; i++) X2[i] = X[i]! * X[i]!;
}

/** The layer table, for the tests. */
export const ZIGGURAT_EDGES: Readonly<Float64Array> = X;

/** The three tables (X, INNER, X2), for the WebAssembly generator (generators/planted-draw.ts), which holds a copy. */
export const ZIGGURAT_TABLES: readonly Readonly<Float64Array>[] = [X, INNER, X2];

export class ZigguratNormal {
  constructor(private readonly rng: Xoshiro128) {}

  next(): number {
    const rng = this.rng;
    const a = rng.next32();
    const b = rng.next32();
    const i = a & 0xff;
    // 53 bits (the top 21 of a, then b): u uniform on [−1, 1)
    const u = ((a >>> 11) * 4294967296 + b) * TWO_TO_MINUS_52 - 1;
    if (Math.abs(u) < INNER[i]!) return u * X[i]!;
    return this.finish(i, u);
  }

  /** A draw (layer i, u) that missed the inner rectangle: the tail, a wedge point, or a fresh draw. */
  private finish(i: number, u: number): number {
    const rng = this.rng;
    for (;;) {
      if (i === 0) return this.tail(u < 0);
      const x = u * X[i]!;
      const x2 = x * x;
      const f0 = fdlibmExp(-0.5 * (X2[i]! - x2));
      const f1 = fdlibmExp(-0.5 * (X2[i + 1]! - x2));
      if (f1 + rng.nextDouble() * (f0 - f1) < 1) return x;
      const a = rng.next32();
      const b = rng.next32();
      i = a & 0xff;
      u = ((a >>> 11) * 4294967296 + b) * TWO_TO_MINUS_52 - 1;
      if (Math.abs(u) < INNER[i]!) return u * X[i]!;
    }
  }

  /**
   * Fills `out` (from `start`, `length` values) with independent standard normals: the same values, in the
   * same order, as `length` calls of next(). fillFast draws until a draw misses its inner rectangle; that
   * one is finished here (finish) and fillFast goes on after it. One loop that also held the slow path's
   * call was slower: 6.3·10⁷ normals a second against 9.2·10⁷ (`npm run bench -- --only generation`).
   */
  fill(out: Float64Array, start = 0, length = out.length - start): void {
    const end = start + length;
    let k = start;
    for (;;) {
      k = fillFast(this.rng, out, k, end);
      if (k === end) return;
      out[k++] = this.finish(missedLayer, missedU);
    }
  }

  /** Beyond R: x = −log(U₁)/R, accepted when −2 log(U₂) ≥ x² (Marsaglia, 1964). U in (0, 1]. */
  private tail(negative: boolean): number {
    const rng = this.rng;
    let x: number;
    let y: number;
    do {
      x = fdlibmLog(1 - rng.nextDouble()) / R;
      y = fdlibmLog(1 - rng.nextDouble());
    } while (-2 * y < x * x);
    return negative ? x - R : R - x;
  }
}

/** The layer and u of the draw that stopped fillFast (read by fill right after it returns). */
let missedLayer = 0;
let missedU = 0;

/**
 * Standard normals into out[k], k = start, start + 1, … while each draw lands in its inner rectangle (two
 * xoshiro128** steps inlined, the generator's state in locals). Returns end, or the index of the first draw
 * that did not, its layer and u left in missedLayer and missedU and the generator's state just after it.
 */
function fillFast(rng: Xoshiro128, out: Float64Array, start: number, end: number): number {
  let s0 = rng.s0;
  let s1 = rng.s1;
  let s2 = rng.s2;
  let s3 = rng.s3;
  let k = start;
  for (; k < end; k++) {
    // a = next32()
    let t = s1 << 9;
    let r = Math.imul(s1, 5);
    const a = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    // b = next32()
    t = s1 << 9;
    r = Math.imul(s1, 5);
    const b = Math.imul((r << 7) | (r >>> 25), 9) >>> 0;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = (s3 << 11) | (s3 >>> 21);
    const i = a & 0xff;
    const u = ((a >>> 11) * 4294967296 + b) * TWO_TO_MINUS_52 - 1;
    if (Math.abs(u) < INNER[i]!) {
      out[k] = u * X[i]!;
      continue;
    }
    missedLayer = i;
    missedU = u;
    break;
  }
  rng.s0 = s0;
  rng.s1 = s1;
  rng.s2 = s2;
  rng.s3 = s3;
  return k;
}
