import { square } from "../../math/interval.js";
import type { Enclosure } from "../../math/dot-enclosure.js";
import { mulUp, nextUp, subUp, TINY, UNIT } from "../../math/outward-rounding.js";
import type { SeparatorBound } from "./separator-bound.js";

/**
 * Hu's bound (docs/theory.md, bound 3): k ≤ D², D = ‖v − a_H ŵ*‖, v = ŵ(0)/η, a_H = (M + 1)/(2γ); a_H ŵ* = c ŵ
 * with c = (M + 1)/(2a). From ŵ(0) = 0, ‖c ŵ‖² = c² S from their upper ends, no pass over the components;
 * otherwise summed component by component, which stays accurate when v is close to a_H ŵ*.
 */
export const hu: SeparatorBound<"hu"> = {
  name: "hu",
  title: "Hu D²",
  short: "Hu",
  cost: "O(dim) a separator",
  evaluate: (context) => (context.zeroInit ? mulUp(square(context.c).hi, context.s.hi) : huUpper(context.initialWeights, context.eta, context.separator, context.c)),
};

/** u/(1 − u), rounded up: |fl(x) − x| ≤ U_PRIME·|fl(x)| for any correctly rounded result in the normal range. */
const U_PRIME = UNIT * (1 + 2 * UNIT);

/**
 * An upper end of Hu's D² = Σ_j (v_j − c ŵ_j)², v = ŵ(0)/η, for c anywhere in its interval, by an a-priori
 * error bound in plain float64 (a random ŵ(0) never makes it exact, so interval arithmetic per component,
 * 4x slower, buys nothing). With a_j = fl(ŵ(0)_j/η), b_j = fl(c_m ŵ_j) for the interval's midpoint c_m and
 * radius r, e_j = fl(a_j − b_j): |v_j − c ŵ_j| ≤ |e_j| + u'(|e_j| + |a_j| + |b_j|) + r|ŵ_j| (each rounding
 * errs by at most u' = u/(1 − u) of its result). These m_j, squared and summed in float64, err by less than
 * γ_{dim+1} relative plus an underflow allowance; the result is raised by more than that and stepped up.
 */
function huUpper(initialWeights: Float64Array, eta: number, separator: Float64Array, c: Enclosure): number {
  const dim = separator.length;
  const middle = c.lo + (c.hi - c.lo) / 2;
  const radius = Math.max(subUp(c.hi, middle), subUp(middle, c.lo));
  let sum = 0;
  for (let j = 0; j < dim; j++) {
    const a = initialWeights[j]! / eta;
    const b = middle * separator[j]!;
    const e = a - b;
    const bound = Math.abs(e) + U_PRIME * (Math.abs(e) + Math.abs(a) + Math.abs(b)) + radius * Math.abs(separator[j]!);
    // The bound's own four roundings (all of positive terms) err by less than 8u of it.
    const m = bound * (1 + 8 * UNIT);
    sum += m * m;
  }
  return nextUp(sum * (1 + 4 * (dim + 4) * UNIT) + dim * TINY);
}