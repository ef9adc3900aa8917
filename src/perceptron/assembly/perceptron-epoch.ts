// AssemblyScript, compiled to WebAssembly (SIMD) by `npm run build:wasm`; loaded by ../perceptron-wasm.ts.
//
// One epoch of the fixed-increment perceptron (docs/theory.md, "The algorithm") over the learner's vectors
// u_i, bit-identical to the TypeScript reference trainPerceptron (../perceptron.ts).
//
// Why rows, not coordinates, share a SIMD register: vectorising one dot product ŵ·u_i across its
// coordinates (lane j sums j, j + 2, ...) would change the order of its additions, hence its last bits,
// hence at a near-tie the mistake decision and every table. Here each lane holds the dot product of a
// different point, summed in the reference's order (j = 0, 1, ..., dim − 1; a product, then a sum,
// never fused: WebAssembly has no implicit FMA). The next 2 or 4 points of the epoch are scored at once
// with the current ŵ; scores are consumed in order up to the first mistake, which updates ŵ, and the
// scoring restarts at the point after it. Scores of later points, computed with the old ŵ, are dropped:
// speculation costs work on mistakes, never exactness. The caller picks 2 points when mistakes are
// frequent (less work dropped) and 4 when they are rare (more independent addition chains in flight).
//
// Memory, all laid out by the caller: u (n × dim f64, row-major), ŵ (dim f64), order (n i32, the points
// of this epoch in presentation order), and, where the caller asks for them (counts ≠ 0), the per-point
// update counts (n i32: counts[i] += 1 for each update on point i; the a-posteriori bounds need them).
// The return value is the number of mistakes (= updates) of the
// epoch, or −(mistakes + 1) when a dot product was NaN (float64 overflow, ∞ − ∞), with ŵ as it stood
// before that point: the caller reports the overflow as the reference does.

// The planted generator's data set and the bounds' row passes share this module, its memory and its loader.
export { rowDots, rowDotsAndAbsolutes, learnerRows } from "./row-passes";
export { plantedDraw, zigguratTables } from "./planted-draw";
export { fdlibmExp, fdlibmLog } from "./fdlibm";

/** The first byte the caller may use. */
export function heapBase(): usize {
  return __heap_base;
}

/** ŵ += η u_r, coordinate by coordinate as the reference does (each sum alone, so SIMD is exact here). */
@inline
function update(w: usize, row: usize, bytes: usize, eta: f64): void {
  const step = f64x2.splat(eta);
  let j: usize = 0;
  for (; j + 16 <= bytes; j += 16) {
    v128.store(w + j, f64x2.add(v128.load(w + j), f64x2.mul(step, v128.load(row + j))));
  }
  if (j < bytes) store<f64>(w + j, load<f64>(w + j) + eta * load<f64>(row + j));
}

/** counts[point] += 1 for the update on the point at position `i` of the order, where counts are kept. */
@inline
function count(counts: usize, order: usize, i: i32): void {
  if (counts == 0) return;
  const at = counts + (<usize>load<i32>(order + (<usize>i << 2)) << 2);
  store<i32>(at, load<i32>(at) + 1);
}

@inline
function rowAt(u: usize, order: usize, i: i32, bytes: usize): usize {
  return u + <usize>load<i32>(order + (<usize>i << 2)) * bytes;
}

/** The points from `i` on, one at a time: the tail of an epoch, exactly the reference loop. */
function single(n: i32, bytes: usize, u: usize, w: usize, order: usize, eta: f64, i: i32, mistakes: i32, counts: usize): i32 {
  for (; i < n; i++) {
    const row = rowAt(u, order, i, bytes);
    let dot: f64 = 0;
    for (let j: usize = 0; j < bytes; j += 8) dot += load<f64>(w + j) * load<f64>(row + j);
    if (!(dot > 0)) {
      if (dot != dot) return -mistakes - 1;
      update(w, row, bytes, eta);
      count(counts, order, i);
      mistakes++;
    }
  }
  return mistakes;
}

/** An epoch scoring two points at a time (lanes 0 and 1 of one f64x2). */
export function epochPairs(n: i32, dim: i32, u: usize, w: usize, order: usize, eta: f64, counts: usize): i32 {
  const bytes = <usize>dim << 3;
  let mistakes = 0;
  let i = 0;
  while (i + 2 <= n) {
    const p0 = rowAt(u, order, i, bytes);
    const p1 = rowAt(u, order, i + 1, bytes);
    let s = f64x2.splat(0);
    for (let j: usize = 0; j < bytes; j += 8) {
      const x = v128.load64_lane(p1 + j, v128.load64_zero(p0 + j), 1);
      s = f64x2.add(s, f64x2.mul(v128.load64_splat(w + j), x));
    }
    // The first of the two points not classified correctly (dot ≤ 0, or NaN), in order; if none, the next two.
    const d0 = f64x2.extract_lane(s, 0);
    const d1 = f64x2.extract_lane(s, 1);
    let dot: f64;
    let row: usize;
    if (!(d0 > 0)) {
      dot = d0;
      row = p0;
    } else if (!(d1 > 0)) {
      dot = d1;
      row = p1;
      i += 1;
    } else {
      i += 2;
      continue;
    }
    if (dot != dot) return -mistakes - 1;
    update(w, row, bytes, eta);
    count(counts, order, i);
    mistakes++;
    i++;
  }
  return single(n, bytes, u, w, order, eta, i, mistakes, counts);
}

/** An epoch scoring four points at a time (two f64x2, two independent addition chains). */
export function epochQuads(n: i32, dim: i32, u: usize, w: usize, order: usize, eta: f64, counts: usize): i32 {
  const bytes = <usize>dim << 3;
  let mistakes = 0;
  let i = 0;
  while (i + 4 <= n) {
    const p0 = rowAt(u, order, i, bytes);
    const p1 = rowAt(u, order, i + 1, bytes);
    const p2 = rowAt(u, order, i + 2, bytes);
    const p3 = rowAt(u, order, i + 3, bytes);
    let s = f64x2.splat(0);
    let t = f64x2.splat(0);
    for (let j: usize = 0; j < bytes; j += 8) {
      const wj = v128.load64_splat(w + j);
      s = f64x2.add(s, f64x2.mul(wj, v128.load64_lane(p1 + j, v128.load64_zero(p0 + j), 1)));
      t = f64x2.add(t, f64x2.mul(wj, v128.load64_lane(p3 + j, v128.load64_zero(p2 + j), 1)));
    }
    // The first of the four points not classified correctly (dot ≤ 0, or NaN), in order; if none, the next four.
    const d0 = f64x2.extract_lane(s, 0);
    const d1 = f64x2.extract_lane(s, 1);
    const d2 = f64x2.extract_lane(t, 0);
    const d3 = f64x2.extract_lane(t, 1);
    let dot: f64;
    let row: usize;
    if (!(d0 > 0)) {
      dot = d0;
      row = p0;
    } else if (!(d1 > 0)) {
      dot = d1;
      row = p1;
      i += 1;
    } else if (!(d2 > 0)) {
      dot = d2;
      row = p2;
      i += 2;
    } else if (!(d3 > 0)) {
      dot = d3;
      row = p3;
      i += 3;
    } else {
      i += 4;
      continue;
    }
    if (dot != dot) return -mistakes - 1;
    update(w, row, bytes, eta);
    count(counts, order, i);
    mistakes++;
    i++;
  }
  return single(n, bytes, u, w, order, eta, i, mistakes, counts);
}
