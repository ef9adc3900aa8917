import { capitalised, factorColumn, PROOF_FACTORS, type ProofFactorName } from "../bounds/bound-choice.js";
import type { RunRow } from "../run/run-types.js";
import { summaryMedian, type SummaryRow } from "../run/summary-types.js";
import { BOUND_TITLES, counted, PLOTTED_BOUNDS, separatorWords, type PlotInput } from "./plot.js";

/** What the answer calls each step of the proof (docs/theory.md, "Why a bound is loose"). */
const STEP_NAMES: Readonly<Record<ProofFactorName, string>> = {
  gain: "the gain step (the updates moved further along ŵ* than the margin)",
  alignment: "the alignment step (ŵ_k was not parallel to ŵ*)",
  interference: "the interference step (the cross terms ŵ_t·u_t were negative)",
  radius: "the radius step (the points updated on were shorter than R)",
};

/**
 * The report's first section, the answer before the plots: per bound, how loose it is (the median over grid
 * points of each point's median updates/bound, as "× loose", with its range across the grid); which step of the
 * proof accounts for most of Novikoff's gap where the factors were computed; and how much of it is the order's
 * where the worst order was. Sentences, each a pure function of the rows; none where there is nothing to say.
 */
export function answerLines(summary: readonly SummaryRow[], runs: readonly RunRow[], separator: PlotInput["separator"]): string[] {
  const lines: string[] = [];
  const loose = (column: string): { median: number; low: number; high: number; points: number } | null => {
    const ratios = summary
      .map((row) => summaryMedian(row, column))
      .filter((value): value is number => value !== null && value > 0);
    if (ratios.length === 0) return null;
    const factors = ratios.map((ratio) => 1 / ratio).sort((a, b) => a - b);
    return { median: medianOf(factors), low: factors[0]!, high: factors.at(-1)!, points: factors.length };
  };
  for (const bound of PLOTTED_BOUNDS) {
    const found = loose(`${separator}${capitalised(bound)}Ratio`);
    if (found !== null) lines.push(`${BOUND_TITLES[bound]} from ${separatorWords(separator)}: ${looseWords(found)}.`);
  }
  const best = loose("bestRatio");
  if (best !== null) lines.push(`The best bound (the smallest that applies, over every separator): ${looseWords(best)}.`);

  // The proof's steps: the mean over runs of each factor's share of log((R/γ)²/k).
  const parts = PROOF_FACTORS.map(() => 0);
  let withFactors = 0;
  for (const row of runs) {
    const values = PROOF_FACTORS.map((factor) => (row as unknown as Record<string, number | null>)[factorColumn(separator, factor)]);
    if (values.some((value) => typeof value !== "number" || !(value >= 1))) continue;
    values.forEach((value, k) => (parts[k]! += Math.log(value!)));
    withFactors++;
  }
  const total = parts.reduce((sum, part) => sum + part, 0);
  if (withFactors > 0 && total > 0) {
    const largest = parts.indexOf(Math.max(...parts));
    lines.push(
      `Why Novikoff's bound is loose (${counted(withFactors, "run")} from ŵ(0) = 0 with the proof's factors): ${STEP_NAMES[PROOF_FACTORS[largest]!]} accounts for ${percent(parts[largest]! / total)} of the gap (in logarithm), ${PROOF_FACTORS.filter((_, k) => k !== largest)
        .map((factor) => `${factor} ${percent(parts[PROOF_FACTORS.indexOf(factor)]! / total)}`)
        .join(", ")}.`,
    );
  }

  // The order and the proof: where W* was exact, log(bound/updates) = log(W*/updates) + log(bound/W*).
  let order = 0;
  let proof = 0;
  let exactRuns = 0;
  const first = `${separator}${capitalised(PLOTTED_BOUNDS[0]!)}Bound`;
  for (const row of runs) {
    const fields = row as unknown as Record<string, number | boolean | null>;
    const lower = fields.worstOrderLower;
    const bound = fields[first];
    if (typeof lower !== "number" || lower !== fields.worstOrderUpper || !(lower > 0) || typeof bound !== "number" || !(bound > 0) || row.converged !== true || !(row.updates! > 0)) continue;
    order += Math.log(lower / row.updates!);
    proof += Math.log(bound / lower);
    exactRuns++;
  }
  if (exactRuns > 0 && order + proof > 0) {
    lines.push(
      `Order or proof (${counted(exactRuns, "converged run")} whose worst order W* was found exactly): of the gap between the updates and ${BOUND_TITLES[PLOTTED_BOUNDS[0]!]}, the order's luck (updates below W*) accounts for ${percent(order / (order + proof))} and the proof's slack (W* below the bound) for ${percent(proof / (order + proof))}, in logarithm; on average W* is ${(Math.exp(proof / exactRuns)).toPrecision(2)}× below the bound.`,
    );
  }
  return lines;
}

function looseWords({ median, low, high, points }: { median: number; low: number; high: number; points: number }): string {
  const range = points > 1 ? ` (from ${times(low)} to ${times(high)} across ${points} grid points)` : "";
  return `a median ${times(median)} the updates${range}`;
}

function times(value: number): string {
  return `${value >= 10 ? Math.round(value) : value.toPrecision(2)}×`;
}

function percent(share: number): string {
  return `${Math.round(share * 100)} %`;
}

function medianOf(sorted: readonly number[]): number {
  const middle = sorted.length / 2;
  return sorted.length % 2 === 1 ? sorted[Math.floor(middle)]! : (sorted[middle - 1]! + sorted[middle]!) / 2;
}
