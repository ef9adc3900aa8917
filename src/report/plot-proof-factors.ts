import { factorColumn, PROOF_FACTORS, type ProofFactorName } from "../bounds/bound-choice.js";
import type { RunRow } from "../run/run-types.js";
import { counted, OKABE_ITO, plotSpec, type Plot, type PlotInput } from "./plot.js";
import { pointAxis } from "./point-axis.js";

/** What the legend calls each factor of the proof (docs/theory.md, "Why a bound is loose"). */
const FACTOR_NAMES: Readonly<Record<ProofFactorName, string>> = {
  gain: "A gain (kγ ≤ ŵ*·ŵ_k/η)",
  alignment: "B alignment (≤ ‖ŵ_k‖/η)",
  interference: "C interference (≤ √S_M)",
  radius: "D radius (≤ √k·R)",
};
const COLOURS = [OKABE_ITO.blue, OKABE_ITO.orange, OKABE_ITO.bluishGreen, OKABE_ITO.reddishPurple];
const SEPARATOR_NAMES = { planted: "planted separator", optimal: "max-margin separator" } as const;

/**
 * Why Novikoff's bound is loose, grid point by grid point: log₁₀((R/γ)²/updates) of a run is exactly the sum
 * of 2·log₁₀ of the proof's four factors; one stacked column per grid point and separator, each factor's
 * part the mean over the point's runs (means add up, so the column's height is the mean of log₁₀ of
 * bound/updates). Drawn where the sweep listed `factors` and some run has them.
 */
export function proofFactorsPlot(input: PlotInput): Plot | null {
  const separators = (["planted", "optimal"] as const).filter((separator) => input.runs.some((row) => typeof row[`${separator}GainFactor`] === "number"));
  if (separators.length === 0) return null;
  const parts = new Map<string, { sums: number[]; runs: number }>();
  for (const row of input.runs) {
    for (const separator of separators) {
      const values = factorsOf(row, separator);
      if (values === null) continue;
      const key = `${row.point} ${separator}`;
      const entry = parts.get(key) ?? { sums: [0, 0, 0, 0], runs: 0 };
      values.forEach((value, k) => (entry.sums[k]! += 2 * Math.log10(value)));
      entry.runs++;
      parts.set(key, entry);
    }
  }
  const rows = input.summary.filter((row) => separators.some((separator) => parts.has(`${row.point} ${separator}`)));
  const axis = pointAxis(rows);
  const data = rows.flatMap((row) =>
    separators.flatMap((separator) => {
      const entry = parts.get(`${row.point} ${separator}`);
      if (entry === undefined) return [];
      return PROOF_FACTORS.map((factor, k) => ({
        point: row.point,
        label: axis.label(row),
        separator: SEPARATOR_NAMES[separator],
        factor: FACTOR_NAMES[factor],
        rank: k,
        part: entry.sums[k]! / entry.runs,
        runs: entry.runs,
      }));
    }),
  );
  const names = PROOF_FACTORS.map((factor) => FACTOR_NAMES[factor]);
  const spec = {
    data: { values: data },
    width: axis.width,
    height: 220,
    mark: { type: "bar" },
    encoding: {
      x: axis.x,
      y: { field: "part", type: "quantitative", stack: "zero", title: "log₁₀ (R/γ)² / updates (mean)" },
      color: { field: "factor", type: "nominal", sort: names, scale: { domain: names, range: COLOURS }, title: "step of the proof", legend: { labelLimit: 260 } },
      order: { field: "rank", type: "quantitative", sort: "ascending" },
      ...(separators.length > 1 ? { row: { field: "separator", type: "nominal", title: null, sort: separators.map((separator) => SEPARATOR_NAMES[separator]) } } : {}),
      tooltip: [{ field: "point" }, { field: "label" }, { field: "separator" }, { field: "factor" }, { field: "part", format: ".3f" }, { field: "runs" }],
    },
  };
  const without = input.runs.length - new Set(input.runs.filter((row) => separators.some((separator) => factorsOf(row, separator) !== null)).map((row) => row.run)).size;
  return {
    name: "proof-factors",
    title: "Why the bound is loose: the proof's four steps",
    caption: [
      "One column: a grid point's runs from ŵ(0) = 0, for the " + separators.map((separator) => SEPARATOR_NAMES[separator]).join(" and the ") + ".",
      "Its height is the mean over the runs of log₁₀ of Novikoff's (R/γ)² over the updates, split exactly into 2·log₁₀ of the four factors of the proof (docs/theory.md, \"Why a bound is loose\"): A, how much further the updates moved along ŵ* than the margin; B, how far ŵ_k is from parallel to ŵ*; C, how negative the cross terms ŵ_t·u_t were; D, how much shorter the points updated on were than R. A factor of 1 (no part) is a step the run made tight.",
      "Measured on the run that happened: a certificate, not a prediction.",
      without > 0 ? `${counted(without, "run")} of those drawn from ${input.runsEvery > 1 ? "every " + input.runsEvery + "th run" : "the sweep"} have no factors (ŵ(0) ≠ 0, no update, or no separating separator).` : "",
      input.runsEvery > 1 ? `Means over every ${input.runsEvery}th run of the sweep (${input.runs.length} of ${input.totalRuns}).` : "",
      axis.words,
    ]
      .filter((part) => part !== "")
      .join(" "),
    spec: plotSpec(spec, axis.factors),
  };
}

/** A run's four factors for a separator, or null where it has none (or they were not computed). */
function factorsOf(row: RunRow, separator: "planted" | "optimal"): number[] | null {
  const values = PROOF_FACTORS.map((factor) => row[factorColumn(separator, factor)]);
  return values.every((value): value is number => typeof value === "number" && value > 0) ? values : null;
}
