import { readdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { compareResults } from "../../src/compare/compare-results.js";
import { parseFailRule } from "../../src/compare/fail-rule.js";
import { checkedRecord } from "../../src/export/record-check.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { factorProblems } from "./plot-factors.js";

function loaded(source: Record<string, unknown>): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "1".repeat(64) };
}

const folder = temporaryFolder();
const ready = runExperiment(
  loaded({ name: "report", description: "A test sweep <with markup>.", repeats: 4, grid: { n: 40, d: [2, 6], margin: [0.05, 0.2], eta: [0.5, 2], init: ["zero", "normal:1"] } }),
  { threads: 1, outDir: folder },
).then(() => writeReport(folder));

/** A folder's manifest as an older version wrote it: that version, and no record of the tables (which came with 0.9). */
function asWrittenBy(folder: string, version: string): void {
  const path = join(folder, "manifest.json");
  const { tables: _tables, ...manifest } = JSON.parse(readFileSync(path, "utf8")) as { tool: Record<string, unknown>; tables?: unknown };
  writeFileSync(path, JSON.stringify({ ...manifest, tool: { ...manifest.tool, version } }));
}

describe("report", () => {
  it("writes a self-contained page, report.md and one SVG per plot", async () => {
    const page = await ready;
    const html = readFileSync(page, "utf8");
    const plots = readdirSync(join(folder, "plots")).filter((file) => file.endsWith(".svg")).sort();
    expect(plots).toEqual(["eta-and-init.svg", "ratio-vs-dimension.svg", "ratio-vs-margin.svg", "updates-per-point.svg", "updates-vs-bounds.svg"]);
    // Each picture beside its specification, which carries its caption.
    for (const plot of plots) expect(JSON.parse(readFileSync(join(folder, "plots", plot.replace(/\.svg$/, ".vl.json")), "utf8")).description).toMatch(/^One /);
    expect(html.match(/<svg /g)).toHaveLength(plots.length);
    // Self-contained: no script, no stylesheet or image fetched from anywhere.
    expect(html).not.toMatch(/<script|<link|src="|url\(/i);
    expect(html).toContain("A test sweep &lt;with markup&gt;.");
    // Printed, a figure stays on one page, and a heading with what follows it.
    expect(html).toContain("@media print { body { margin: 0; max-width: none; } figure { break-inside: avoid; } h2 { break-after: avoid; } }");
    const markdown = readFileSync(join(folder, "report.md"), "utf8").trimEnd().split("\n");
    expect(markdown.filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(16);
  });

  it("shows the runs that did not converge, and thins a large scatter, saying both", async () => {
    // (Data version 2: the run numbers below are those of its data sets.) maxEpochs 2 stops most runs; 800 runs against four distinct bounds (a random ŵ(0) parts them) are
    // 3200 marks, over the 3000 a scatter draws.
    const stopped = temporaryFolder();
    await runExperiment(loaded({ name: "stopped", seed: 3, repeats: 200, maxEpochs: 2, dataVersion: 2, grid: { n: 40, d: 2, margin: [0.01, 0.05], init: ["zero", "normal:1"], eta: 1 } }), { threads: 1, outDir: stopped });
    await writeReport(stopped);
    const summary = JSON.parse(readFileSync(join(stopped, "summary.json"), "utf8")) as { runs: number; converged: number }[];
    const notConverged = summary.reduce((sum, row) => sum + row.runs - row.converged, 0);
    expect(notConverged).toBeGreaterThan(100);
    const spec = (name: string) => JSON.parse(readFileSync(join(stopped, "plots", `${name}.vl.json`), "utf8")) as { description: string; data: { values: Record<string, unknown>[] } };
    const share = spec("converged-share");
    expect(share.description).toContain(`within 2 epochs (${notConverged} in all)`);
    // One bar part per point and outcome, the parts of a point adding up to 1.
    expect(share.data.values).toHaveLength(3 * summary.length);
    for (let point = 0; point < summary.length; point++) {
      const parts = share.data.values.filter((row) => row.point === point).map((row) => row.share as number);
      expect(parts.reduce((a, b) => a + b, 0)).toBeCloseTo(1, 12);
    }
    const scatter = spec("updates-vs-bounds");
    const runs = scatter.data.values.filter((row) => row.kind === "run");
    expect(new Set(runs.map((row) => row.run)).size).toBe(400); // every 2nd of 800
    expect(runs.every((row) => (row.run as number) % 2 === 0)).toBe(true);
    expect(runs.length).toBeLessThanOrEqual(3000);
    expect(scatter.description).toContain("Thinned: every 2nd run of the sweep is drawn (400 of 800)");
    const hollow = runs.filter((row) => row.converged === false);
    expect(new Set(hollow.map((row) => row.run)).size).toBeGreaterThan(0);
    expect(scatter.description).toContain(`Hollow: ${new Set(hollow.map((row) => row.run)).size} runs that did not converge`);
    // The tightness and per-point plots say how many runs their statistics leave out.
    for (const name of ["ratio-vs-margin", "updates-per-point"]) expect(spec(name).description).toContain(`${notConverged} runs did not converge (or failed)`);
  });

  it("names the grid points a plot of converged runs cannot draw, and counts their runs among those that did not converge", async () => {
    // Labels flipped at random (noise 0.3): no run of those points converges, and their statistics of converged runs are empty.
    const folder = temporaryFolder();
    await runExperiment(loaded({ name: "undrawn", repeats: 5, maxEpochs: 50, grid: { n: 40, d: 2, margin: [0.1, 0.2], noise: [0, 0.3] } }), { threads: 1, outDir: folder });
    await writeReport(folder);
    const summary = JSON.parse(readFileSync(join(folder, "summary.json"), "utf8")) as { point: number; runs: number; converged: number }[];
    const never = summary.filter((row) => row.converged === 0).map((row) => row.point);
    expect(never).toHaveLength(2);
    const notConverged = summary.reduce((sum, row) => sum + row.runs - row.converged, 0);
    for (const name of ["updates-per-point", "ratio-vs-margin"]) {
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${name}.vl.json`), "utf8")) as { description: string; data: { values: { point: number }[] } };
      expect(spec.data.values.some((row) => never.includes(row.point))).toBe(false);
      expect(spec.description).toContain(`${notConverged} runs did not converge (or failed)`);
      expect(spec.description).toContain(`Not drawn: 2 grid points with no converged run (points ${never.join(", ")}).`);
    }
    // Every log axis ticks (and so grids) at powers of ten only, and y = x crosses the scatter from one decade to the next at least.
    const scatter = JSON.parse(readFileSync(join(folder, "plots", "updates-vs-bounds.vl.json"), "utf8")) as Record<string, unknown>;
    const logAxes: { axis?: { values?: number[] } }[] = [];
    const visit = (node: unknown): void => {
      if (node === null || typeof node !== "object") return;
      const object = node as Record<string, unknown>;
      if ((object.scale as { type?: string } | undefined)?.type === "log") logAxes.push(object as never);
      Object.values(object).forEach(visit);
    };
    visit(scatter);
    expect(logAxes.length).toBeGreaterThan(0);
    for (const { axis } of logAxes) expect(axis?.values?.every((value) => Number.isInteger(Math.log10(value)))).toBe(true);
    const diagonal = (scatter.data as { values: { kind: string; bound: number }[] }).values.filter((row) => row.kind === "diagonal").map((row) => row.bound);
    expect(Math.max(...diagonal) / Math.min(...diagonal)).toBeGreaterThanOrEqual(10);
  });

  it("lays 120 grid points out as small multiples, each point a mark of its own, every factor encoded, no label rotated", async () => {
    // 12 margins × 10 values of η: 120 points, which 0.14 named on one axis of 45° labels.
    const many = temporaryFolder();
    const margins = Array.from({ length: 12 }, (_, k) => 0.02 * (k + 1));
    const etas = Array.from({ length: 10 }, (_, k) => 2 ** (k - 5));
    await runExperiment(loaded({ name: "many", repeats: 1, grid: { n: 12, d: 2, margin: margins, eta: etas } }), { threads: 1, outDir: many });
    await writeReport(many);
    type Spec = { description: string; encoding?: unknown; layer: { encoding: Record<string, { field?: string; type?: string; axis?: { labelAngle?: number } }> }[]; data: { values: Record<string, unknown>[] } };
    const spec = JSON.parse(readFileSync(join(many, "plots", "updates-per-point.vl.json"), "utf8")) as Spec;
    expect(spec.data.values).toHaveLength(120);
    const dot = spec.layer[0]!.encoding;
    expect([dot.x!.field, dot.x!.type, dot.x!.axis?.labelAngle, dot.color!.field, dot.xOffset!.field]).toEqual(["margin", "ordinal", 0, "eta", "slot"]);
    // One mark a point: no two points share an x and a slot.
    const places = spec.data.values.map((row) => JSON.stringify([row.margin, row.slot]));
    expect(new Set(places).size).toBe(120);
    expect(spec.description).toContain("x: margin γ. colour: η.");
    const summary = JSON.parse(readFileSync(join(many, "summary.json"), "utf8"));
    expect(factorProblems(spec as unknown as Record<string, unknown>, summary)).toEqual([]);
    const svg = readFileSync(join(many, "plots", "updates-per-point.svg"), "utf8");
    expect(Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1])).toBeLessThanOrEqual(1200);
  });

  it("draws a sweep of 1 096 grid points with the dimension on a continuous axis, not 137 columns nor a sort list of 1 096 (which overflowed Vega's stack on the main thread: cli.e2e)", async () => {
    const large = temporaryFolder();
    const dimensions = Array.from({ length: 137 }, (_, k) => k + 1);
    await runExperiment(loaded({ name: "large", repeats: 1, optimal: false, grid: { n: 8, d: dimensions, margin: [0.01, 0.02, 0.05, 0.1, 0.15, 0.2, 0.3, 0.4] } }), { threads: 1, outDir: large });
    await writeReport(large);
    const svg = readFileSync(join(large, "plots", "updates-per-point.svg"), "utf8");
    expect(svg.startsWith("<svg")).toBe(true);
    const spec = JSON.parse(readFileSync(join(large, "plots", "updates-per-point.vl.json"), "utf8")) as { data: { values: unknown[] }; layer: { encoding: Record<string, { field?: string; type?: string; sort?: unknown }> }[] };
    expect(spec.data.values).toHaveLength(1096);
    const dot = spec.layer[0]!.encoding;
    expect([dot.x!.field, dot.x!.type, dot.color!.field, dot.xOffset]).toEqual(["d", "quantitative", "margin", undefined]);
    const longest = (node: unknown): number =>
      Array.isArray(node) ? Math.max(node.length, ...node.map(longest)) : node !== null && typeof node === "object" ? Math.max(0, ...Object.values(node).map(longest)) : 0;
    expect(longest({ ...spec, data: null })).toBeLessThan(200);
  });

  it("draws why the bound is loose where the sweep lists factors: per grid point, the four parts add up to log₁₀ of the bound over the updates", async () => {
    const why = temporaryFolder();
    await runExperiment(loaded({ name: "why", repeats: 3, bounds: ["default", "factors"], grid: { n: 40, d: [2, 6], margin: [0.05, 0.2] } }), { threads: 1, outDir: why });
    await writeReport(why);
    const spec = JSON.parse(readFileSync(join(why, "plots", "proof-factors.vl.json"), "utf8")) as { data: { values: { point: number; separator: string; part: number }[] } };
    const runs = [...readResultFolder(why).runs()];
    for (const separator of ["planted", "optimal"] as const) {
      for (const point of [0, 1, 2, 3]) {
        const parts = spec.data.values.filter((row) => row.point === point && row.separator.startsWith(separator === "planted" ? "planted" : "max-margin"));
        expect(parts).toHaveLength(4);
        const own = runs.filter((row) => row.point === point);
        const mean = own.reduce((sum, row) => sum + Math.log10(row[`${separator}NovikoffBound`]! / row.updates!), 0) / own.length;
        expect(parts.reduce((sum, row) => sum + row.part, 0)).toBeCloseTo(mean, 9);
      }
    }
    expect(readFileSync(join(why, "report.html"), "utf8")).toContain("Why the bound is loose: the proof's four steps");
  });

  it("summarises a folder of 0.3, whose summary.json has no p10, p25 or p75, anew from its runs, and says so", async () => {
    const old = temporaryFolder();
    await runExperiment(loaded({ name: "old", repeats: 3, grid: { n: 20, d: 2, margin: [0.1, 0.2] } }), { threads: 1, outDir: old });
    const path = join(old, "summary.json");
    const current = JSON.parse(readFileSync(path, "utf8")) as Record<string, unknown>[];
    // As 0.3 wrote it: every statistic without the three quantiles.
    const strip = (value: unknown): unknown =>
      value !== null && typeof value === "object" && "median" in value && "mean" in value ? Object.fromEntries(Object.entries(value).filter(([key]) => !["p10", "p25", "p75"].includes(key))) : value;
    writeFileSync(path, JSON.stringify(current.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key, strip(value)])))));
    asWrittenBy(old, "0.3.0");
    expect(readResultFolder(old).summary).toEqual(current);
    const page = readFileSync(await writeReport(old), "utf8");
    expect(page).toContain("summary.json has no p10, p25 or p75 (written by perceptron-lab");
  });

  it("reads, reports and compares a folder of 0.4, whose runs have no noise, overlap or the columns that came with them", async () => {
    const source = { name: "old", repeats: 4, grid: [{ n: 20, d: 2, margin: [0.1, 0.2], init: ["zero", "normal:1"] }, { generator: "hadamard", n: 8 }] };
    const [old, now] = [temporaryFolder(), temporaryFolder()];
    await runExperiment(loaded(source), { threads: 1, outDir: old });
    await runExperiment(loaded(source), { threads: 1, outDir: now });
    // As 0.4 wrote them: records without the 0.5 columns (each with its check), summaries without their statistics.
    const added = ["noise", "overlap", "firstEpochMistakes", "lastEpochMistakes", "finalErrors", "pocketErrors", "wrongSide", "mistakes"];
    const isNew = (key: string) => added.includes(key) || key.startsWith("tightest") || key.includes("FreundSchapire");
    const records = readFileSync(join(old, "runs.jsonl"), "utf8").trimEnd().split("\n");
    const stripped = records.map((line) => {
      const { check: _check, ...row } = JSON.parse(line) as Record<string, unknown>;
      const body = JSON.stringify(Object.fromEntries(Object.entries(row).filter(([key]) => !isNew(key))));
      return checkedRecord(body.slice(0, -1));
    });
    writeFileSync(join(old, "runs.jsonl"), `${stripped.join("\n")}\n`);
    const summary = JSON.parse(readFileSync(join(old, "summary.json"), "utf8")) as Record<string, unknown>[];
    writeFileSync(join(old, "summary.json"), JSON.stringify(summary.map((row) => Object.fromEntries(Object.entries(row).filter(([key]) => !isNew(key))))));
    asWrittenBy(old, "0.4.0");

    const rows = readResultFolder(old).summary;
    expect(rows.map((row) => [row.generator, row.noise, row.overlap])).toEqual(summary.map((row) => [row.generator, row.noise, row.overlap]));
    expect(rows.map((row) => row.mistakes.median)).toEqual(summary.map((row) => (row.mistakes as { median: number }).median));
    const page = readFileSync(await writeReport(old), "utf8");
    expect(page).toContain("summary.json has no statistics over every run (mistakes, Freund–Schapire) (written by perceptron-lab");
    // Every grid point matches the same sweep run now, and nothing regressed.
    const report = compareResults(old, now, [parseFailRule("median:updates:5%")]);
    expect({ matched: report.matchedPoints, result: report.result }).toEqual({ matched: summary.length, result: "pass" });
  });
});
