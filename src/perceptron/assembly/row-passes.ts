// AssemblyScript, compiled into the same module as the perceptron's epochs (perceptron-epoch.ts exports
// these); used by ../row-passes.ts and ../learner-coordinates.ts.
//
// Passes over the rows of a data set, bit-identical to their TypeScript references (../row-passes.ts,
// ../learner-coordinates.ts): every sum in the order of its row's components, rows sharing a SIMD register
// lane by lane (never the components of one sum), products and sums never fused (WebAssembly has no
// implicit FMA). Memory is laid out by the caller; rows are n × dim f64, row-major.

/** out[i] = start + Σ_j w_j·u_ij, in the order j = 0, 1, …: four rows at a time. */
export function rowDots(n: i32, dim: i32, u: usize, w: usize, out: usize, start: f64): void {
  const bytes = <usize>dim << 3;
  let i = 0;
  for (; i + 4 <= n; i += 4) {
    const p0 = u + <usize>i * bytes;
    const p1 = p0 + bytes;
    const p2 = p1 + bytes;
    const p3 = p2 + bytes;
    let s = f64x2.splat(start);
    let t = f64x2.splat(start);
    for (let j: usize = 0; j < bytes; j += 8) {
      const wj = v128.load64_splat(w + j);
      s = f64x2.add(s, f64x2.mul(wj, v128.load64_lane(p1 + j, v128.load64_zero(p0 + j), 1)));
      t = f64x2.add(t, f64x2.mul(wj, v128.load64_lane(p3 + j, v128.load64_zero(p2 + j), 1)));
    }
    v128.store(out + (<usize>i << 3), s);
    v128.store(out + (<usize>i << 3), t, 16);
  }
  for (; i < n; i++) {
    const row = u + <usize>i * bytes;
    let a = start;
    for (let j: usize = 0; j < bytes; j += 8) a += load<f64>(w + j) * load<f64>(row + j);
    store<f64>(out + (<usize>i << 3), a);
  }
}

/** dots[i] = Σ_j w_j·u_ij and absolutes[i] = Σ_j |w_j·u_ij|, each from 0 in the order j = 0, 1, …: two rows at a time. */
export function rowDotsAndAbsolutes(n: i32, dim: i32, u: usize, w: usize, dots: usize, absolutes: usize): void {
  const bytes = <usize>dim << 3;
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const p0 = u + <usize>i * bytes;
    const p1 = p0 + bytes;
    let dot = f64x2.splat(0);
    let absolute = f64x2.splat(0);
    for (let j: usize = 0; j < bytes; j += 8) {
      const product = f64x2.mul(v128.load64_splat(w + j), v128.load64_lane(p1 + j, v128.load64_zero(p0 + j), 1));
      dot = f64x2.add(dot, product);
      absolute = f64x2.add(absolute, f64x2.abs(product));
    }
    v128.store(dots + (<usize>i << 3), dot);
    v128.store(absolutes + (<usize>i << 3), absolute);
  }
  for (; i < n; i++) {
    const row = u + <usize>i * bytes;
    let dot: f64 = 0;
    let absolute: f64 = 0;
    for (let j: usize = 0; j < bytes; j += 8) {
      const product = load<f64>(w + j) * load<f64>(row + j);
      dot += product;
      absolute += abs<f64>(product);
    }
    store<f64>(dots + (<usize>i << 3), dot);
    store<f64>(absolutes + (<usize>i << 3), absolute);
  }
}

/**
 * The learner's coordinates (docs/theory.md, "Data and coordinates"): u_i = y_i·(x_i, 1) with a bias (dim = d + 1),
 * y_i·x_i without (dim = d), and squares[i] = ‖u_i‖² summed in the order of its components (the bias's 1
 * last). x is n × d, y n labels (f64).
 */
export function learnerRows(n: i32, d: i32, dim: i32, x: usize, y: usize, u: usize, squares: usize): void {
  const xBytes = <usize>d << 3;
  const uBytes = <usize>dim << 3;
  const bias = dim > d;
  let i = 0;
  for (; i + 2 <= n; i += 2) {
    const x0 = x + <usize>i * xBytes;
    const u0 = u + <usize>i * uBytes;
    const labels = v128.load(y + (<usize>i << 3));
    let norm = f64x2.splat(0);
    for (let j: usize = 0; j < xBytes; j += 8) {
      const value = f64x2.mul(labels, v128.load64_lane(x0 + xBytes + j, v128.load64_zero(x0 + j), 1));
      v128.store64_lane(u0 + j, value, 0);
      v128.store64_lane(u0 + uBytes + j, value, 1);
      norm = f64x2.add(norm, f64x2.mul(value, value));
    }
    if (bias) {
      v128.store64_lane(u0 + xBytes, labels, 0);
      v128.store64_lane(u0 + uBytes + xBytes, labels, 1);
      norm = f64x2.add(norm, f64x2.splat(1));
    }
    v128.store(squares + (<usize>i << 3), norm);
  }
  for (; i < n; i++) {
    const row = x + <usize>i * xBytes;
    const out = u + <usize>i * uBytes;
    const label = load<f64>(y + (<usize>i << 3));
    let norm: f64 = 0;
    for (let j: usize = 0; j < xBytes; j += 8) {
      const value = label * load<f64>(row + j);
      store<f64>(out + j, value);
      norm += value * value;
    }
    if (bias) {
      store<f64>(out + xBytes, label);
      norm += 1;
    }
    store<f64>(squares + (<usize>i << 3), norm);
  }
}
