// AssemblyScript, compiled into the same module as the perceptron's epochs (perceptron-epoch.ts exports
// these); used by ../../generators/planted-rows.ts.
//
// The row pass of data version 2's planted generator (docs/theory.md, "Data versions"), bit-identical to the
// TypeScript one there: every sum in the order of its row's components (rows share a SIMD register, lane
// by lane, never the components of one sum), every x_ij = base_i·w_j + scale_i·x_ij a product, a product
// and a sum, never fused (WebAssembly has no implicit FMA).
//
// Memory, laid out by the caller: x (n × dim f64, row-major), w (dim f64), and n f64 each for dots,
// squares, bases and scales.

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

/** x_ij = bases[i]·w_j + scales[i]·x_ij for every row i and component j (two components at a time). */
export function placeRows(n: i32, dim: i32, x: usize, w: usize, bases: usize, scales: usize): void {
  const bytes = <usize>dim << 3;
  for (let i = 0; i < n; i++) {
    const row = x + <usize>i * bytes;
    const base = load<f64>(bases + (<usize>i << 3));
    const scale = load<f64>(scales + (<usize>i << 3));
    const base2 = f64x2.splat(base);
    const scale2 = f64x2.splat(scale);
    let j: usize = 0;
    for (; j + 16 <= bytes; j += 16) {
      v128.store(row + j, f64x2.add(f64x2.mul(base2, v128.load(w + j)), f64x2.mul(scale2, v128.load(row + j))));
    }
    if (j < bytes) store<f64>(row + j, base * load<f64>(w + j) + scale * load<f64>(row + j));
  }
}
