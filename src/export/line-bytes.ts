/**
 * Lines written as UTF-8 into one growing buffer, reused from batch to batch (run-lines.ts): keys, numbers
 * and checks written a byte at a time (they are ASCII), texts as their encoding, made once a batch, and
 * whole stretches of the line before copied inside the buffer (copyWithin).
 */
export class LineBytes {
  #bytes = new Uint8Array(1 << 16);

  /** The buffer, with room for `count` bytes from `at`: grown where it had not, the bytes before `at` kept. */
  room(at: number, count: number): Uint8Array {
    if (at + count > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(at + count, 2 * this.#bytes.length));
      grown.set(this.#bytes.subarray(0, at));
      this.#bytes = grown;
    }
    return this.#bytes;
  }

  /** The first `length` bytes, as a view valid until the next call of room. */
  view(length: number): Uint8Array {
    return this.#bytes.subarray(0, length);
  }
}

/** The longest String(x) of a double: `-0.0000012345678901234567` (25 characters; `-1.2345678901234567e-308` has 24). */
export const NUMBER_BYTES = 25;

/**
 * A finite number at `at` as String(value) writes it (JSON's form and the CSV's); returns the byte after it.
 * 32-bit integers digit by digit (−0 as "0", as String writes it), the others through String, whose
 * shortest round-trip form is ASCII.
 */
export function writeNumber(out: Uint8Array, at: number, value: number): number {
  if ((value | 0) !== value) return writeAscii(out, at, String(value));
  let rest = value;
  if (rest < 0) {
    out[at++] = 45; // "-"
    rest = -rest;
  }
  let end = at + 1;
  for (let power = 10; power <= rest; power *= 10) end++;
  for (let k = end - 1; k >= at; k--) {
    const next = Math.floor(rest / 10);
    out[k] = 48 + rest - next * 10;
    rest = next;
  }
  return end;
}

/** ASCII text at `at`, a character a byte; returns the byte after it. */
export function writeAscii(out: Uint8Array, at: number, text: string): number {
  for (let k = 0; k < text.length; k++) out[at++] = text.charCodeAt(k);
  return at;
}

/** Bytes at `at`; returns the byte after them. A loop: the pieces are short, shorter than a call of set costs. */
export function writeBytes(out: Uint8Array, at: number, bytes: Uint8Array): number {
  for (let k = 0; k < bytes.length; k++) out[at++] = bytes[k]!;
  return at;
}
