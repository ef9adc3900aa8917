import type { PointParameters } from "./run-types.js";

/**
 * The exact number of updates docs/theory.md predicts for the structured families from ŵ(0) = 0, where
 * floating point reproduces exact arithmetic; null everywhere else.
 *  - orthonormal: n, in any order and for any η (the u_i have disjoint supports: every first-pass dot
 *    product is exactly 0);
 *  - hadamard: n in any order, for η a power of two. Every first-pass dot product is a tie at exactly 0
 *    only in exact arithmetic: sums of a non-dyadic η (0.7, 0.1) leave residues of ±1e-16 that break the
 *    ties, and the float64 run makes fewer updates (10 instead of 16 at n = 16, η = 0.7);
 *  - three-point: 1 + ⌊c²/2⌋ in the cyclic order. Where c²/2 lies within 1e-9 of an integer the count
 *    hinges on a tie at exactly 0, which only exact arithmetic keeps: a dyadic c (c·1024 a whole number
 *    below 2^30) and η a power of two. Elsewhere rounding cannot move the count.
 */
export function expectedUpdates(p: PointParameters): number | null {
  if (p.init !== "zero") return null;
  switch (p.generator) {
    case "orthonormal":
      return p.n;
    case "hadamard":
      return isPowerOfTwo(p.eta) ? p.n : null;
    case "three-point": {
      const c = p.c!;
      const half = (c * c) / 2;
      const exact = Number.isInteger(c * 1024) && Math.abs(c * 1024) < 2 ** 30 && isPowerOfTwo(p.eta);
      if (p.order !== "cyclic" || (!exact && Math.abs(half - Math.round(half)) < 1e-9)) return null;
      return 1 + Math.floor(half);
    }
    default:
      return null;
  }
}

/** 2^k for an integer k (…, 0.25, 0.5, 1, 2, …). */
function isPowerOfTwo(value: number): boolean {
  return value > 0 && value === 2 ** Math.round(Math.log2(value));
}
