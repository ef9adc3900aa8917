/**
 * The two 32-bit halves of a float64, as fdlibm reads and writes them (its GET_HIGH_WORD, GET_LOW_WORD,
 * INSERT_WORDS, SET_HIGH_WORD and SET_LOW_WORD macros). One shared scratch value: no allocation per call.
 */
const scratch = new Float64Array(1);
const halves = new Uint32Array(scratch.buffer);

scratch[0] = 1;
if (halves[1] !== 0x3ff00000) throw new Error("float64 words: only little-endian platforms are supported");

/** The high word (sign, exponent and the top 20 bits of the fraction), as a signed 32-bit integer. */
export function highWord(x: number): number {
  scratch[0] = x;
  return halves[1]! | 0;
}

/** The low word (the bottom 32 bits of the fraction), as an unsigned 32-bit integer. */
export function lowWord(x: number): number {
  scratch[0] = x;
  return halves[0]!;
}

/** The float64 whose words are `high` and `low` (each taken modulo 2³²). */
export function fromWords(high: number, low: number): number {
  halves[1] = high >>> 0;
  halves[0] = low >>> 0;
  return scratch[0]!;
}

/** x with its low word replaced by 0: the top 21 bits of its significand, exact. */
export function clearLowWord(x: number): number {
  scratch[0] = x;
  halves[0] = 0;
  return scratch[0]!;
}

/** x with its high word replaced by `high`. */
export function withHighWord(x: number, high: number): number {
  scratch[0] = x;
  halves[1] = high >>> 0;
  return scratch[0]!;
}
