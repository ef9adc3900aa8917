import { div, mul, point, sub } from "../../math/interval.js";
import { mulUp, sqrtUp } from "../../math/outward-rounding.js";
import { minRowDot } from "../min-row-dot.js";
import { overSquare, type SeparatorBound } from "./separator-bound.js";

/**
 * Snapp's k_max (docs/theory.md, bound 2), any ŵ(0), any η: k_max = (ηM − μ)‖ŵ‖²/(η a²) with
 * μ = 2 min_i ŵ(0)·u_i, as docs/theory.md writes it (ŵ* unnormalised): (M − 2 min_i v·u_i) S/a², v = ŵ(0)/η,
 * clamped at 0 (μ > 0: ŵ(0) already separates and k = 0). From ŵ(0) = 0 it is (R/γ)².
 */
export const snapp: SeparatorBound<"snapp"> = {
  name: "snapp",
  title: "Snapp k_max",
  short: "Snapp",
  cost: "from ŵ(0) ≠ 0, a pass over the rows a separator",
  evaluate(context) {
    if (context.zeroInit) return overSquare(context, context.m.hi);
    const { data, initialWeights, eta, m } = context;
    const minInitDot = minRowDot(data.u, data.n, data.dim, initialWeights, mulUp(sqrtUp(context.initNorm2().hi), sqrtUp(m.hi)));
    const factor = sub(m, div(mul(point(2), minInitDot), point(eta)));
    return factor.hi <= 0 ? 0 : overSquare(context, factor.hi);
  },
};
