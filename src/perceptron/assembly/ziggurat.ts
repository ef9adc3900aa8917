// AssemblyScript, compiled into the same module as the perceptron's epochs (perceptron-epoch.ts exports
// these); used by ../../random/ziggurat-normal.ts.
//
// The fast path of data versions 2 and 3's standard normals (docs/theory.md, "Data versions"), bit-identical
// to fillFast in ../../random/ziggurat-normal.ts: two xoshiro128** steps a draw (32-bit integer arithmetic,
// which wraps the same here as Math.imul and the shifts do there), the layer from the first output's low 8
// bits, u from 53 bits of both (an integer below 2^53, so its conversion to f64 is exact, then × 2^-52 and
// − 1, each rounded as there), and u·X[i] when |u| < X[i+1]/X[i]. The first draw that misses its inner
// rectangle stops the loop: its layer and u are left for the caller, which finishes it in TypeScript
// (the wedge and the tail need exp and log) and calls again.
//
// Static memory below the heap (never in a caller's layout): the generator's state and the missed draw,
// the layer tables the caller writes once, and a buffer for outputs that do not lie in the module's memory.

/** s0..s3 (u32), then the missed draw's layer (i32, at 16) and u (f64, at 24). */
const STATE: usize = memory.data(32, 16);
/** X[0..256] (257 f64), then INNER[0..255] (256 f64): written by the caller before the first fill. */
const TABLES: usize = memory.data(513 * 8, 16);
const INNER: usize = TABLES + 257 * 8;
/** Room for this many normals where the caller's array is not in the module's memory. */
// (ZIGGURAT_BUFFER_LENGTH in ../../random/ziggurat-wasm.ts)
const BUFFER: usize = memory.data(4096 * 8, 16);

export function zigguratState(): usize {
  return STATE;
}

export function zigguratTables(): usize {
  return TABLES;
}

export function zigguratBuffer(): usize {
  return BUFFER;
}

const TWO_TO_MINUS_52: f64 = 2.220446049250313e-16;

/**
 * Normals into out[start], out[start + 1], … (f64 at byte address `out`) while each draw lands in its inner
 * rectangle; returns `end`, or the index of the first draw that did not (its layer and u in STATE, the
 * state just after it).
 */
export function zigguratFill(out: usize, start: i32, end: i32): i32 {
  let s0 = load<u32>(STATE);
  let s1 = load<u32>(STATE, 4);
  let s2 = load<u32>(STATE, 8);
  let s3 = load<u32>(STATE, 12);
  let k = start;
  for (; k < end; k++) {
    let t = s1 << 9;
    const a = rotl<u32>(s1 * 5, 7) * 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl<u32>(s3, 11);
    t = s1 << 9;
    const b = rotl<u32>(s1 * 5, 7) * 9;
    s2 ^= s0;
    s3 ^= s1;
    s1 ^= s2;
    s0 ^= s3;
    s2 ^= t;
    s3 = rotl<u32>(s3, 11);
    const i = <usize>(a & 0xff);
    const u = <f64>(((<u64>(a >>> 11)) << 32) | <u64>b) * TWO_TO_MINUS_52 - 1.0;
    if (abs<f64>(u) < load<f64>(INNER + (i << 3))) {
      store<f64>(out + (<usize>k << 3), u * load<f64>(TABLES + (i << 3)));
      continue;
    }
    store<i32>(STATE, <i32>i, 16);
    store<f64>(STATE, u, 24);
    break;
  }
  store<u32>(STATE, s0);
  store<u32>(STATE, s1, 4);
  store<u32>(STATE, s2, 8);
  store<u32>(STATE, s3, 12);
  return k;
}
