import type { SummaryRow } from "../../src/run/summary-types.js";
import type { PlotFactors } from "../../src/report/plot.js";
import { FACTOR_TITLES } from "../../src/report/sweep-factors.js";
import { POINT_KEYS } from "../../src/run/run-types.js";

/** Every `field` a specification encodes: in any encoding channel, facet or wrapped facet, at any depth. */
export function encodedFields(spec: unknown): Set<string> {
  const fields = new Set<string>();
  const walk = (node: unknown, inEncoding: boolean) => {
    if (Array.isArray(node)) for (const item of node) walk(item, inEncoding);
    else if (node !== null && typeof node === "object") {
      for (const [key, value] of Object.entries(node)) {
        if (key === "data") continue;
        if (inEncoding && key === "field" && typeof value === "string") fields.add(value);
        walk(value, inEncoding || key === "encoding" || key === "facet");
      }
    }
  };
  walk(spec, false);
  return fields;
}

/**
 * What is wrong with a plot's account of the sweep's factors, as a list of sentences (empty when nothing).
 * Worked out here from the summary rows of the points the plot's data name, not from the plot's own record:
 * every factor that varies over them must be encoded (a channel or a facet), named in every point's axis label,
 * pooled or implied (and then named in the caption), or left to summary.csv (and the caption says so). An
 * implied factor must truly follow from the others on those points.
 */
export function factorProblems(spec: Record<string, unknown>, summary: readonly SummaryRow[]): string[] {
  const problems: string[] = [];
  const rows = ((spec.data as { values?: Record<string, unknown>[] } | undefined)?.values ?? []).filter((row) => typeof row.point === "number");
  const pointsDrawn = new Set(rows.map((row) => row.point as number));
  const points = summary.filter((row) => pointsDrawn.has(row.point));
  if (points.length === 0) return ["its data name no grid point"];
  const varying = POINT_KEYS.filter((key) => new Set(points.map((row) => row[key])).size > 1);
  const recorded = (spec.usermeta as { factors?: PlotFactors } | undefined)?.factors;
  if (recorded === undefined) return ["no usermeta.factors"];
  const caption = String(spec.description ?? "");
  const encoded = encodedFields(spec);
  for (const factor of varying) {
    if (encoded.has(factor)) continue;
    if (recorded.inLabel.includes(factor)) {
      for (const row of rows) {
        const value = points.find((point) => point.point === row.point)![factor];
        const text = factor === "bias" ? (value ? "yes" : "no") : String(value);
        if (value !== null && !String(row.label).includes(text)) problems.push(`${factor} = ${text} is not in point ${String(row.point)}'s label ${JSON.stringify(row.label)}`);
      }
    } else if (recorded.pooled.includes(factor) || recorded.implied.includes(factor)) {
      if (!caption.includes(FACTOR_TITLES[factor])) problems.push(`${factor} is pooled or implied but the caption does not name it`);
    } else if (recorded.inTable?.includes(factor)) {
      if (!caption.includes("summary.csv")) problems.push(`${factor} is left to summary.csv but the caption does not say so`);
    } else {
      problems.push(`${factor} varies over the plotted points but is neither encoded, labelled, pooled nor implied`);
    }
  }
  for (const factor of recorded.implied) {
    const others = varying.filter((other) => other !== factor && !recorded.implied.includes(other));
    const seen = new Map<string, unknown>();
    for (const point of points) {
      const key = JSON.stringify(others.map((other) => point[other]));
      if (seen.has(key) && seen.get(key) !== point[factor]) {
        problems.push(`${factor} is called implied but takes two values where ${others.join(", ")} agree`);
        break;
      }
      seen.set(key, point[factor]);
    }
  }
  return problems;
}
