/** (√5 − 1)/2: each golden section keeps this share of the bracket. */
const RATIO = (Math.sqrt(5) - 1) / 2;

/**
 * `steps` golden sections of [lo, hi] towards a minimum of f (unimodal there), reusing one of the two
 * inner values at each step, so 2 + steps calls to f. The caller keeps whatever best point f sees; the
 * searches of the tightest bounds recompute their bound from it.
 */
export function goldenSection(lo: number, hi: number, steps: number, f: (x: number) => number): void {
  let a = hi - RATIO * (hi - lo);
  let b = lo + RATIO * (hi - lo);
  let fa = f(a);
  let fb = f(b);
  for (let k = 0; k < steps; k++) {
    if (fa <= fb) {
      hi = b;
      b = a;
      fb = fa;
      a = hi - RATIO * (hi - lo);
      fa = f(a);
    } else {
      lo = a;
      a = b;
      fa = fb;
      b = lo + RATIO * (hi - lo);
      fb = f(b);
    }
  }
}
