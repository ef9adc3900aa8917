import { hash } from "node:crypto";

/**
 * xoshiro128** (Blackman and Vigna, 2018): 128 bits of state, period 2^128 − 1, 32-bit outputs that pass
 * BigCrush and PractRand; only 32-bit integer operations (Math.imul, shifts, xor), which every JavaScript
 * engine computes the same. Data version 2's generator (THEORY.md, "Data versions").
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
    return (high * 4294967296 + low) / 9007199254740992;
  }
}

function rotl(x: number, k: number): number {
  return (x << k) | (x >>> (32 - k));
}

/**
 * The state of a run's named stream (data, init, order) under data version 2: the first 128 bits of
 * SHA-256 of `v2/<seed>/<stream>` (never all zero in practice; a zero state is refused, not patched).
 */
export function xoshiroStateOf(seed: number, stream: string): [number, number, number, number] {
  const digest = hash("sha256", `v2/${seed}/${stream}`, "buffer");
  return [digest.readUInt32BE(0), digest.readUInt32BE(4), digest.readUInt32BE(8), digest.readUInt32BE(12)];
}
