/**
 * xoshiro128** (Blackman and Vigna, 2018): 128 bits of state, period 2^128 − 1, 32-bit outputs that pass
 * BigCrush and PractRand; only 32-bit integer operations (Math.imul, shifts, xor), which every JavaScript
 * engine computes the same. Data version 2's generator (docs/theory.md, "Data versions").
 */
export class Xoshiro128 {
  // The state: public for the inlined loop of ZigguratNormal.fill, which keeps it in locals.
  s0: number;
  s1: number;
  s2: number;
  s3: number;

  /** Four 32-bit words of state, not all zero. */
  constructor(words: readonly [number, number, number, number]) {
    [this.s0, this.s1, this.s2, this.s3] = words.map((word) => word | 0) as [number, number, number, number];
    if ((this.s0 | this.s1 | this.s2 | this.s3) === 0) throw new RangeError("xoshiro128**: the state must not be all zero");
  }

  /** The next 32-bit output, as an unsigned integer. */
  next32(): number {
    const s1 = this.s1;
    const result = Math.imul(rotl(Math.imul(s1, 5), 7), 9) >>> 0;
    const t = s1 << 9;
    this.s2 ^= this.s0;
    this.s3 ^= s1;
    this.s1 = s1 ^ this.s2;
    this.s0 ^= this.s3;
    this.s2 ^= t;
    this.s3 = rotl(this.s3, 11);
    return result;
  }

  /** A uniform double in [0, 1) with 53 random bits (the top 21 of one output, then all 32 of the next). */
  nextDouble(): number {
    const high = this.next32() >>> 11;
    const low = this.next32();
    return (high * 4294967296 + low) * 1.1102230246251565e-16; // × 2⁻⁵³: exact, as ÷ 2⁵³ is, and cheaper
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/** The streams of a run, numbered for the state below. */
const STREAM_NUMBER: Readonly<Record<string, number>> = { data: 1, init: 2, order: 3 };

/**
 * The state of a run's named stream (data, init, order) under data version 2, from the run's seed (a
 * SHA-256-derived integer below 2^53) with no hash call (one per stream and run was 2 % of a small run):
 * the seed's low 32 bits and its high 21 bits with the stream's number, each through murmur3's
 * finaliser (a bijection of 32-bit words, so different seeds or streams give different states), then two
 * more words mixed from both. Never all zero: the first two words are bijections of values offset by
 * constants, and a zero state is refused, not patched, should it ever come.
 */
export function xoshiroStateOf(seed: number, stream: string): [number, number, number, number] {
  const number = STREAM_NUMBER[stream];
  if (number === undefined || !Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`xoshiroStateOf: seed ${seed}, stream ${stream}`);
  const low = seed % 4294967296;
  const high = (seed - low) / 4294967296; // < 2^21
  const s0 = fmix32((low ^ 0x6a09e667) >>> 0);
  const s1 = fmix32(((high | (number << 21)) ^ 0xbb67ae85) >>> 0);
  const s2 = fmix32((s0 ^ Math.imul(s1, 0x9e3779b9) ^ 0x3c6ef372) >>> 0);
  const s3 = fmix32((s1 ^ Math.imul(s0, 0x85ebca6b) ^ 0xa54ff53a) >>> 0);
  return [s0, s1, s2, s3];
}

/** murmur3's 32-bit finaliser: a bijection that spreads every input bit over the output. */
function fmix32(h: number): number {
  h ^= h >>> 16;
  h = Math.imul(h, 0x85ebca6b);
  h ^= h >>> 13;
  h = Math.imul(h, 0xc2b2ae35);
  h ^= h >>> 16;
  return h >>> 0;
}
