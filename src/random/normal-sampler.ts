import { fdlibmLog } from "../math/fdlibm-log.js";
import type { Uniform } from "./seeded-random.js";

/**
 * Standard normal deviates by the Marsaglia polar method: two uniforms in the unit disc give two
 * independent normals, the second kept for the next call. No allocation per draw. The logarithm is
 * fdlibmLog, not Math.log, which ECMAScript leaves to each engine (docs/theory.md, "Data versions"); √ is exact.
 */
export class NormalSampler {
  private spare = 0;
  private hasSpare = false;

  constructor(private readonly uniform: Uniform) {}

  next(): number {
    if (this.hasSpare) {
      this.hasSpare = false;
      return this.spare;
    }
    let u: number;
    let v: number;
    let s: number;
    do {
      u = 2 * this.uniform() - 1;
      v = 2 * this.uniform() - 1;
      s = u * u + v * v;
    } while (s >= 1 || s === 0);
    const m = Math.sqrt((-2 * fdlibmLog(s)) / s);
    this.spare = v * m;
    this.hasSpare = true;
    return u * m;
  }

  /**
   * Fills `out` (from `start`, `length` values) with independent standard normals: the same values, in
   * the same order, as `length` calls of next(), with the polar step inlined (the generator's hot loop).
   */
  fill(out: Float64Array, start = 0, length = out.length - start): void {
    const end = start + length;
    let i = start;
    if (i < end && this.hasSpare) {
      this.hasSpare = false;
      out[i++] = this.spare;
    }
    const uniform = this.uniform;
    while (i < end) {
      let u: number;
      let v: number;
      let s: number;
      do {
        u = 2 * uniform() - 1;
        v = 2 * uniform() - 1;
        s = u * u + v * v;
      } while (s >= 1 || s === 0);
      const m = Math.sqrt((-2 * fdlibmLog(s)) / s);
      out[i++] = u * m;
      if (i < end) out[i++] = v * m;
      else {
        this.spare = v * m;
        this.hasSpare = true;
      }
    }
  }
}
