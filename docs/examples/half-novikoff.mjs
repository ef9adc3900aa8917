// A plug-in bound (docs/plugins.md): a conjecture to test, not a theorem. From ŵ(0) = 0, is k ≤ ½(R/γ)²?
import { defineBound, divUp, mulDown, mulUp } from "perceptron-lab/plugin";

export default defineBound({
  name: "halfNovikoff",
  title: "½(R/γ)²",
  // (R/γ)² = M·S/a² (docs/theory.md) with every step rounded up, then halved (exact in binary).
  evaluate: ({ zeroInit, radiusSquared, normSquared, margin }) =>
    zeroInit ? divUp(mulUp(radiusSquared.hi, normSquared.hi), mulDown(margin.lo, margin.lo)) / 2 : null,
});
