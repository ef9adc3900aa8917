/**
 * Exact rational arithmetic on BigInts, for checking float64 results against the exact ones: every
 * float64 is a rational m·2^e, and sums, products and quotients of rationals stay exact.
 */
export class Rational {
  private constructor(
    readonly num: bigint,
    readonly den: bigint,
  ) {}

  static of(num: bigint, den = 1n): Rational {
    if (den < 0n) [num, den] = [-num, -den];
    const g = gcd(num < 0n ? -num : num, den);
    return new Rational(num / g, den / g);
  }

  /** The exact value of a finite float64. */
  static fromFloat(x: number): Rational {
    if (!Number.isFinite(x)) throw new RangeError(`not finite: ${x}`);
    const view = new DataView(new ArrayBuffer(8));
    view.setFloat64(0, x);
    const bits = view.getBigUint64(0);
    const negative = bits >> 63n === 1n;
    const exponent = Number((bits >> 52n) & 0x7ffn);
    const fraction = bits & ((1n << 52n) - 1n);
    const mantissa = exponent === 0 ? fraction : fraction | (1n << 52n);
    const power = (exponent === 0 ? 1 : exponent) - 1075;
    const signed = negative ? -mantissa : mantissa;
    return power >= 0 ? Rational.of(signed << BigInt(power)) : Rational.of(signed, 1n << BigInt(-power));
  }

  add(other: Rational): Rational {
    return Rational.of(this.num * other.den + other.num * this.den, this.den * other.den);
  }

  sub(other: Rational): Rational {
    return Rational.of(this.num * other.den - other.num * this.den, this.den * other.den);
  }

  mul(other: Rational): Rational {
    return Rational.of(this.num * other.num, this.den * other.den);
  }

  div(other: Rational): Rational {
    if (other.num === 0n) throw new RangeError("division by 0");
    return Rational.of(this.num * other.den, this.den * other.num);
  }

  /** −1, 0 or 1 as this is below, equal to or above other. */
  compare(other: Rational): number {
    const difference = this.num * other.den - other.num * this.den;
    return difference < 0n ? -1 : difference > 0n ? 1 : 0;
  }

  sign(): number {
    return this.num < 0n ? -1 : this.num > 0n ? 1 : 0;
  }
}

function gcd(a: bigint, b: bigint): bigint {
  while (b !== 0n) [a, b] = [b, a % b];
  return a === 0n ? 1n : a;
}

/** Σ x_j y_j exactly. */
export function exactDot(x: ArrayLike<number>, xOffset: number, y: ArrayLike<number>, yOffset: number, length: number): Rational {
  let sum = Rational.of(0n);
  for (let k = 0; k < length; k++) sum = sum.add(Rational.fromFloat(x[xOffset + k]!).mul(Rational.fromFloat(y[yOffset + k]!)));
  return sum;
}
