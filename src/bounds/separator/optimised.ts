import { dotEnclosure, type Enclosure } from "../../math/dot-enclosure.js";
import { add, div, mul, nonNegative, point, sqrt, square, sub } from "../../math/interval.js";
import { divUp } from "../../math/outward-rounding.js";
import { overSquare, type SeparatorBound } from "./separator-bound.js";

/**
 * The optimised bound N(v) (docs/theory.md, bound 4): Hu's argument holds for any constant a > β²/(2γ), and its
 * minimum over a is N(v) = [B + √(B² + 4γ²(‖v‖² − p²))]/(2γ²), B = M − 2γp, p = ŵ*·v. With q = ŵ·v:
 * γp = a q/S, √X = 2a √(‖v‖² − q²/S)/√S and 1/(2γ²) = S/(2a²); √(B² + X) = hypot(B, √X). When B < 0 the sum
 * B + √(B² + X) cancels; it is computed as X/(√(B² + X) − B) instead. From ŵ(0) = 0 it is (R/γ)².
 */
export const optimised: SeparatorBound<"optimised"> = {
  name: "optimised",
  title: "N(v)",
  short: "N(v)",
  cost: "O(dim) a separator",
  evaluate(context) {
    if (context.zeroInit) return overSquare(context, context.m.hi);
    const { data, separator, eta, initialWeights, m, a, s } = context;
    const etaPoint = point(eta);
    const etaSquared = square(etaPoint);
    const vNorm2 = div(context.initNorm2(), etaSquared);
    const q = div(dotEnclosure(separator, 0, initialWeights, 0, data.dim), etaPoint);
    const twoA = mul(point(2), a);
    const b = sub(m, div(mul(twoA, q), s));
    // √X with X = 4γ²(‖v‖² − p²) ≥ 0 (Cauchy–Schwarz), and √(B² + X) by a scaled hypot: squaring B or X
    // directly underflows to 0 on data near 1e-150 (halving N(0)) and overflows near 1e150.
    const rootX = div(mul(twoA, sqrt(nonNegative(sub(vNorm2, div(square(q), s))))), sqrt(s));
    const root = hypot(b, rootX);
    const numerator = b.hi >= 0 ? add(b, root) : div(square(rootX), sub(root, b));
    // Halved exactly: (x/a²)/2 rounded up is x/(2a²) rounded up, as it was computed before.
    return divUp(overSquare(context, numerator.hi), 2);
  },
};

/** √(x² + y²) of two intervals, through a power of two k near the larger: k·√((x/k)² + (y/k)²), k exact. */
function hypot(x: Enclosure, y: Enclosure): Enclosure {
  const largest = Math.max(Math.abs(x.lo), Math.abs(x.hi), Math.abs(y.lo), Math.abs(y.hi));
  if (!(largest > 0) || !Number.isFinite(largest)) return largest === 0 ? point(0) : { lo: 0, hi: Infinity };
  const k = point(2 ** Math.floor(Math.log2(largest)));
  return mul(k, sqrt(add(square(div(x, k)), square(div(y, k)))));
}

