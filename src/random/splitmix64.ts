/**
 * The xoshiro128** state of a run's named stream under data version 3 (docs/theory.md, "Data versions"):
 * two outputs of SplitMix64 (Steele, Lea and Flood, 2014; the seeding Vigna recommends for the xoshiro
 * family) started from the whole seed and the stream's number. Every bit of every word is a full mix of
 * every bit of the seed, so seeds that differ in any bit, low or high, draw independent streams. (Version 2
 * put the seed's low 32 bits in one word and its high bits in another; xoshiro128**'s first output reads only
 * the second, so the first draw of every stream depended on seed >> 32 alone.)
 *
 * 64-bit arithmetic in pairs of 32-bit words (Math.imul, shifts, xor: the same on every engine, no BigInt in
 * the per-run path).
 */

/** The streams of a run, numbered for the state (as version 2 numbers them). */
const STREAM_NUMBER: Readonly<Record<string, number>> = { data: 1, init: 2, order: 3 };

/** SplitMix64's increment, the golden ratio's 64 fractional bits, and its two multipliers, as (high, low) words. */
const GAMMA_HI = 0x9e3779b9;
const GAMMA_LO = 0x7f4a7c15;
const M1_HI = 0xbf58476d;
const M1_LO = 0x1ce4e5b9;
const M2_HI = 0x94d049bb;
const M2_LO = 0x133111eb;

/**
 * The state: SplitMix64 started at x = seed + stream·2⁵⁶ (seeds are below 2⁵³, so distinct (seed, stream)
 * pairs start distinct), its first output giving words 0 and 1 (low, high), its second words 2 and 3.
 * Never all zero in practice (2⁻¹²⁸); a zero state is refused by Xoshiro128, not patched.
 */
export function splitMixStateOf(seed: number, stream: string): [number, number, number, number] {
  const number = STREAM_NUMBER[stream];
  if (number === undefined || !Number.isSafeInteger(seed) || seed < 0) throw new RangeError(`splitMixStateOf: seed ${seed}, stream ${stream}`);
  const low = seed % 4294967296;
  const high = ((seed - low) / 4294967296) | (number << 24);
  const generator = new SplitMix64(high >>> 0, low >>> 0);
  generator.next();
  const w0 = generator.lo;
  const w1 = generator.hi;
  generator.next();
  return [w0, w1, generator.lo, generator.hi];
}

/** SplitMix64 with its state as two 32-bit words; next() leaves its 64-bit output in (hi, lo). */
export class SplitMix64 {
  hi = 0;
  lo = 0;

  constructor(
    private stateHi: number,
    private stateLo: number,
  ) {}

  /** state += γ; z = state; z = (z ^ z >> 30)·M1; z = (z ^ z >> 27)·M2; z ^= z >> 31. */
  next(): void {
    const lo = (this.stateLo + GAMMA_LO) >>> 0;
    const carry = lo < this.stateLo ? 1 : 0;
    this.stateLo = lo;
    this.stateHi = (this.stateHi + GAMMA_HI + carry) >>> 0;
    let hi = this.stateHi;
    let low = this.stateLo;
    // z ^= z >>> 30
    low = (low ^ ((low >>> 30) | (hi << 2))) >>> 0;
    hi = (hi ^ (hi >>> 30)) >>> 0;
    [hi, low] = multiply(hi, low, M1_HI, M1_LO);
    // z ^= z >>> 27
    low = (low ^ ((low >>> 27) | (hi << 5))) >>> 0;
    hi = (hi ^ (hi >>> 27)) >>> 0;
    [hi, low] = multiply(hi, low, M2_HI, M2_LO);
    // z ^= z >>> 31
    this.lo = (low ^ ((low >>> 31) | (hi << 1))) >>> 0;
    this.hi = (hi ^ (hi >>> 31)) >>> 0;
  }
}

/** (aHi·2³² + aLo)·(bHi·2³² + bLo) mod 2⁶⁴, as [high, low] unsigned words. */
function multiply(aHi: number, aLo: number, bHi: number, bLo: number): [number, number] {
  // aLo·bLo in full (four 16-bit partial products, each exact in a double), the cross terms mod 2³².
  const a0 = aLo & 0xffff;
  const a1 = aLo >>> 16;
  const b0 = bLo & 0xffff;
  const b1 = bLo >>> 16;
  const p00 = a0 * b0;
  const p01 = a0 * b1;
  const p10 = a1 * b0;
  const middle = (p00 >>> 16) + (p01 & 0xffff) + (p10 & 0xffff);
  const low = ((middle << 16) | (p00 & 0xffff)) >>> 0;
  const carry = a1 * b1 + (p01 >>> 16) + (p10 >>> 16) + Math.floor(middle / 65536);
  const high = (carry + Math.imul(aHi, bLo) + Math.imul(aLo, bHi)) >>> 0;
  return [high, low];
}
