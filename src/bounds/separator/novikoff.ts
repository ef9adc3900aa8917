import { overSquare, type SeparatorBound } from "./separator-bound.js";

/**
 * Novikoff / Block (docs/theory.md, bound 1): k ≤ (R/γ)², for ŵ(0) = 0 only. With a = min_i ŵ·u_i and
 * S = ‖ŵ‖² of the unnormalised ŵ (γ = a/√S), (R/γ)² = M S/a²: no square root, so the structured families'
 * integer data give their exact bounds.
 */
export const novikoff: SeparatorBound<"novikoff"> = {
  name: "novikoff",
  title: "Novikoff (R/γ)²",
  short: "Novikoff",
  needs: "ŵ(0) = 0",
  cost: "one pass over the rows a separator (shared with its margin)",
  evaluate: (context) => (context.zeroInit ? overSquare(context, context.m.hi) : null),
};
