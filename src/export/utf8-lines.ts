/**
 * Text appended as UTF-8 into one growing buffer, reused from batch to batch: a batch's lines are encoded
 * as each is formatted, instead of joined into one string and encoded at the end (which copied every line
 * twice more: into the joined string, then out of it). TextEncoder's encodeInto writes what String's UTF-8
 * conversion does, lone surrogates as U+FFFD included.
 */
export class Utf8Lines {
  #bytes = new Uint8Array(1 << 16);
  #length = 0;

  /** Bytes written since the last take. */
  get length(): number {
    return this.#length;
  }

  append(text: string): void {
    // A UTF-16 code unit takes at most 3 bytes of UTF-8 (a pair of them, 4).
    const need = this.#length + 3 * text.length;
    if (need > this.#bytes.length) {
      const grown = new Uint8Array(Math.max(need, 2 * this.#bytes.length));
      grown.set(this.#bytes.subarray(0, this.#length));
      this.#bytes = grown;
    }
    this.#length += ENCODER.encodeInto(text, this.#bytes.subarray(this.#length)).written;
  }

  /** The bytes written from `start` on, as a view (valid until the next append or take). */
  since(start: number): Uint8Array {
    return this.#bytes.subarray(start, this.#length);
  }

  /** Everything written, as a view (valid until the next append), and a fresh start. */
  take(): Uint8Array {
    const bytes = this.#bytes.subarray(0, this.#length);
    this.#length = 0;
    return bytes;
  }
}

const ENCODER = new TextEncoder();
