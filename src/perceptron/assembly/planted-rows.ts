// AssemblyScript, compiled into the same module as the perceptron's epochs; used by planted-draw.ts.
//
// The first row pass of data versions 2 and 3's planted generator (docs/theory.md, "Data versions"),
// bit-identical to the TypeScript one (../../generators/planted-rows.ts): every sum in the order of its row's
// components (rows share a SIMD register, lane by lane, never the components of one sum), a product then a
// sum, never fused (WebAssembly has no implicit FMA).
//
// Memory, laid out by the caller: x (n × dim f64, row-major), w (dim f64), and n f64 each for dots and squares.

/** dots[i] = Σ_j x_ij·w_j and squares[i] = Σ_j x_ij², each from 0 in the order j = 0, 1, …: four rows at a time. */
export function rowDotsAndSquares(n: i32, dim: i32, x: usize, w: usize, dots: usize, squares: usize): void {
  const bytes = <usize>dim << 3;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const p0 = x + <usize>i * bytes;
    const p1 = p0 + bytes;
    const p2 = p1 + bytes;
    const p3 = p2 + bytes;
    let dot01 = f64x2.splat(0);
    let dot23 = f64x2.splat(0);
    let square01 = f64x2.splat(0);
    let square23 = f64x2.splat(0);
    for (let j: usize = 0; j < bytes; j += 8) {
      const wj = v128.load64_splat(w + j);
      const v01 = v128.load64_lane(p1 + j, v128.load64_zero(p0 + j), 1);
      const v23 = v128.load64_lane(p3 + j, v128.load64_zero(p2 + j), 1);
      dot01 = f64x2.add(dot01, f64x2.mul(v01, wj));
      dot23 = f64x2.add(dot23, f64x2.mul(v23, wj));
      square01 = f64x2.add(square01, f64x2.mul(v01, v01));
      square23 = f64x2.add(square23, f64x2.mul(v23, v23));
    }
    const at = <usize>i << 3;
    v128.store(dots + at, dot01);
    v128.store(dots + at, dot23, 16);
    v128.store(squares + at, square01);
    v128.store(squares + at, square23, 16);
  }
  for (; i < n; i++) {
    const row = x + <usize>i * bytes;
    let dot: f64 = 0;
    let square: f64 = 0;
    for (let j: usize = 0; j < bytes; j += 8) {
      const value = load<f64>(row + j);
      dot += value * load<f64>(w + j);
      square += value * value;
    }
    store<f64>(dots + (<usize>i << 3), dot);
    store<f64>(squares + (<usize>i << 3), square);
  }
}
