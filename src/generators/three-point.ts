import { isBinaryPower } from "../math/power-of-two.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { GeneratorEntry } from "./generator-entry.js";

/**
 * The three-point family of docs/theory.md: 1-D, with bias, all labels +1, presented cyclically in the order
 * x = (c/2, −c, c), c² ≥ 2. The separator (w, b) = (0, 1) has margin 1 and R² = 1 + c², so
 * (R/γ)² = 1 + c², while the perceptron makes 1 + ⌊c²/2⌋ updates: the ratio tends to 1/2.
 */
export function generateThreePoint(c: number): DataSet {
  if (!(c * c >= 2)) throw new RangeError(`three-point needs c² ≥ 2 (got c = ${c})`);
  return {
    n: 3,
    d: 1,
    x: Float64Array.of(c / 2, -c, c),
    y: Int8Array.of(1, 1, 1),
    planted: { w: Float64Array.of(0), b: 1 },
  };
}

/** The three-point family's fixed size. */
const THREE_POINT = { n: 3, d: 1 } as const;

/**
 * The three-point family as the pipeline knows it: n = 3, d = 1, with a bias; from ŵ(0) = 0 in the cyclic
 * order, 1 + ⌊c²/2⌋ updates. Where c²/2 lies within 1e-9 of an integer the count hinges on a tie at exactly
 * 0, which only exact arithmetic keeps: a dyadic c (c·1024 a whole number below 2^30) and η a power of two.
 * Elsewhere rounding cannot move the count.
 */
export const threePointGenerator = {
  name: "three-point",
  description: "x = (c/2, −c, c), all labels +1, with a bias (n = 3, d = 1): 1 + ⌊c²/2⌋ updates against (R/γ)² = 1 + c²",
  required: ["c"],
  keys: ["c"],
  sized: true,
  seeded: false,
  defaultBias: true,
  *shapes(grid) {
    for (const n of grid.n ?? [THREE_POINT.n]) for (const d of grid.d ?? [THREE_POINT.d]) yield { data: null, n, d };
  },
  exclusionReason(p) {
    if (!p.bias) return "three-point: needs bias true";
    if (p.n !== THREE_POINT.n || p.d !== THREE_POINT.d) return "three-point: has n = 3 and d = 1";
    return null;
  },
  dataParameters: (p) => ({ generator: p.generator, c: p.c }),
  generate: (p) => generateThreePoint(p.c!),
  expectedUpdates(p) {
    const c = p.c!;
    const half = (c * c) / 2;
    const exact = Number.isInteger(c * 1024) && Math.abs(c * 1024) < 2 ** 30 && isBinaryPower(p.eta);
    if (p.order !== "cyclic" || (!exact && Math.abs(half - Math.round(half)) < 1e-9)) return null;
    return 1 + Math.floor(half);
  },
  tight: false,
  resident: false,
  epochsGuess: () => 2,
  plotFamily: "half-ratio",
  expectedRule: "1 + ⌊c²/2⌋",
  gridProblems(grid) {
    // c ≥ √2 (c² ≥ 2): below it the order (c/2, −c, c) is not the family's (docs/theory.md).
    return (grid.c ?? []).flatMap((c, index) => (c >= Math.SQRT2 ? [] : [{ key: "c" as const, index, message: `${c} must be at least √2 (three-point needs c² ≥ 2)` }]));
  },
  keyNotes: { n: "three-point has 3", d: "three-point has d = 1", c: "The three-point family's c: points x = (c/2, −c, c)" },
  marginMeaning: "three-point, its c",
  familyPlot: {
    name: "three-point-ratio",
    title: "The three-point family: the ratio tends to 1/2",
    caption:
      "One mark: a grid point of the three-point family, the median over its converged runs of updates / (R/γ)² (band: p25 to p75); dashed curve: (1 + ⌊c²/2⌋)/(1 + c²) from docs/theory.md, as a function of c; dotted rule: its limit 1/2.",
    x: "c",
    ratio: (c) => (1 + Math.floor((c * c) / 2)) / (1 + c * c),
    limit: 0.5,
  },
} satisfies GeneratorEntry;
