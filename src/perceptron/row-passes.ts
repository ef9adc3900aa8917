import { KernelArrays, rowPassKernel } from "./perceptron-wasm.js";

/**
 * out[i] = start + Σ_j w_j·u_ij for the n rows of u (n × dim, row-major): each row summed from `start` in
 * the order of its components, the same float64 as a plain loop over the row. In the WebAssembly module
 * where it loads (u, unless resident, and w copied in, four rows a SIMD pass: n 1 000, d 50 in ~15 µs
 * against ~35), else rowDotsTypeScript: the same float64s.
 */
export function rowDots(u: ArrayLike<number>, n: number, dim: number, w: ArrayLike<number>, out: Float64Array, start = 0): void {
  const exports = rowPassKernel();
  const arrays = exports === null ? null : ROW_DOTS.of(exports, [n * dim, dim, n], [u]);
  if (arrays === null) return rowDotsTypeScript(u, n, dim, w, out, start);
  const [rows, weights, dots] = arrays as [Float64Array, Float64Array, Float64Array];
  if (rows !== u) rows.set(u);
  weights.set(w);
  exports!.rowDots(n, dim, rows.byteOffset, weights.byteOffset, dots.byteOffset, start);
  out.set(dots);
}

/**
 * dots[i] = Σ_j w_j·u_ij and absolutes[i] = Σ_j |w_j·u_ij| for the n rows of u, each from 0 in the order of
 * its components (the products formed once for both): the error bounds' pass of freundSchapireBound. In
 * the WebAssembly module where it loads, else rowDotsAndAbsolutesTypeScript: the same float64s.
 */
export function rowDotsAndAbsolutes(u: ArrayLike<number>, n: number, dim: number, w: ArrayLike<number>, dots: Float64Array, absolutes: Float64Array): void {
  const exports = rowPassKernel();
  const arrays = exports === null ? null : DOTS_AND_ABSOLUTES.of(exports, [n * dim, dim, n, n], [u]);
  if (arrays === null) return rowDotsAndAbsolutesTypeScript(u, n, dim, w, dots, absolutes);
  const [rows, weights, dotsIn, absolutesIn] = arrays as [Float64Array, Float64Array, Float64Array, Float64Array];
  if (rows !== u) rows.set(u);
  weights.set(w);
  exports!.rowDotsAndAbsolutes(n, dim, rows.byteOffset, weights.byteOffset, dotsIn.byteOffset, absolutesIn.byteOffset);
  dots.set(dotsIn);
  absolutes.set(absolutesIn);
}

/** The arrays of rowDots and rowDotsAndAbsolutes in the module's memory. */
const ROW_DOTS = new KernelArrays();
const DOTS_AND_ABSOLUTES = new KernelArrays();

/**
 * rowDots in TypeScript (the reference; where WebAssembly cannot run). The rows go four at a time:
 * a row's sum is a chain of dependent additions, each waiting for the one before, and four chains in
 * flight keep the adder busy where one leaves it idle most of the time (n 1 000, d 50: ~1.6× a row at a time,
 * in a scratch loop not kept).
 */
export function rowDotsTypeScript(u: ArrayLike<number>, n: number, dim: number, w: ArrayLike<number>, out: Float64Array, start = 0): void {
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const r0 = i * dim;
    const r1 = r0 + dim;
    const r2 = r1 + dim;
    const r3 = r2 + dim;
    let a0 = start;
    let a1 = start;
    let a2 = start;
    let a3 = start;
    for (let j = 0; j < dim; j++) {
      const wj = w[j]!;
      a0 += wj * u[r0 + j]!;
      a1 += wj * u[r1 + j]!;
      a2 += wj * u[r2 + j]!;
      a3 += wj * u[r3 + j]!;
    }
    out[i] = a0;
    out[i + 1] = a1;
    out[i + 2] = a2;
    out[i + 3] = a3;
  }
  for (; i < n; i++) {
    const row = i * dim;
    let a = start;
    for (let j = 0; j < dim; j++) a += w[j]! * u[row + j]!;
    out[i] = a;
  }
}

/**
 * dots[i] = Σ_j w_j·u_ij and squares[i] = Σ_j u_ij² for the n rows of u (n × dim, row-major), each summed
 * in the order of its components (the same float64s as a plain loop over the row), two rows at a time
 * (four chains of additions in flight; see rowDots).
 */
export function rowDotsAndSquares(u: ArrayLike<number>, n: number, dim: number, w: ArrayLike<number>, dots: Float64Array, squares: Float64Array): void {
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const r0 = i * dim;
    const r1 = r0 + dim;
    let dot0 = 0;
    let dot1 = 0;
    let square0 = 0;
    let square1 = 0;
    for (let j = 0; j < dim; j++) {
      const wj = w[j]!;
      const v0 = u[r0 + j]!;
      const v1 = u[r1 + j]!;
      dot0 += v0 * wj;
      dot1 += v1 * wj;
      square0 += v0 * v0;
      square1 += v1 * v1;
    }
    dots[i] = dot0;
    dots[i + 1] = dot1;
    squares[i] = square0;
    squares[i + 1] = square1;
  }
  for (; i < n; i++) {
    const row = i * dim;
    let dot = 0;
    let square = 0;
    for (let j = 0; j < dim; j++) {
      const value = u[row + j]!;
      dot += value * w[j]!;
      square += value * value;
    }
    dots[i] = dot;
    squares[i] = square;
  }
}

/** rowDotsAndAbsolutes in TypeScript (the reference): two rows at a time (four chains of additions in flight; see rowDotsTypeScript). */
export function rowDotsAndAbsolutesTypeScript(u: ArrayLike<number>, n: number, dim: number, w: ArrayLike<number>, dots: Float64Array, absolutes: Float64Array): void {
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const r0 = i * dim;
    const r1 = r0 + dim;
    let dot0 = 0;
    let dot1 = 0;
    let absolute0 = 0;
    let absolute1 = 0;
    for (let j = 0; j < dim; j++) {
      const wj = w[j]!;
      const product0 = wj * u[r0 + j]!;
      const product1 = wj * u[r1 + j]!;
      dot0 += product0;
      dot1 += product1;
      absolute0 += Math.abs(product0);
      absolute1 += Math.abs(product1);
    }
    dots[i] = dot0;
    dots[i + 1] = dot1;
    absolutes[i] = absolute0;
    absolutes[i + 1] = absolute1;
  }
  for (; i < n; i++) {
    const row = i * dim;
    let dot = 0;
    let absolute = 0;
    for (let j = 0; j < dim; j++) {
      const product = w[j]! * u[row + j]!;
      dot += product;
      absolute += Math.abs(product);
    }
    dots[i] = dot;
    absolutes[i] = absolute;
  }
}
