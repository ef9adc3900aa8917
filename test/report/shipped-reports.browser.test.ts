import { mkdirSync, readdirSync, readFileSync, statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SummaryRow } from "../../src/run/summary-types.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { chromiumScreenshot, CONSOLE_ERROR, haveChromium, marksPerSvg } from "./chromium.js";
import { figureGeometry } from "./figure-geometry.js";
import { fitPaperFigure } from "../../src/report/paper-figures.js";
import { PAPER_WIDTHS } from "../../src/vocabulary/result-files.js";
import { factorProblems } from "./plot-factors.js";

/**
 * The report of every shipped experiment, as a reader opens it. Each sweep runs with at most REPEATS repeats
 * (the same grid, so the same factors and plots, in seconds rather than a minute: dimensions.json's 30
 * repeats take ~24 s here). REPORT_SCREENSHOTS=<folder> keeps a screenshot of each page there, to look at.
 */
const REPEATS = 6;
const EXPERIMENTS = readdirSync("experiments").filter((file) => /\.(json|ya?ml)$/.test(file) && file !== "schema.json").sort();
const screenshots = process.env.REPORT_SCREENSHOTS ?? temporaryFolder("report-shots-");
mkdirSync(screenshots, { recursive: true });

interface Written {
  readonly folder: string;
  readonly page: string;
  readonly summary: SummaryRow[];
  readonly plots: string[];
}

const written = new Map<string, Promise<Written>>();
function reportOf(file: string): Promise<Written> {
  if (!written.has(file)) {
    written.set(
      file,
      (async () => {
        const experiment = loadExperiment(join("experiments", file));
        const repeats = Math.min(REPEATS, experiment.experiment.repeats);
        const folder = temporaryFolder(`report-${file.replace(/\W/g, "-")}-`);
        await runExperiment(loadExperiment(join("experiments", file), { overrides: [`repeats=${repeats}`] }), { threads: 2, outDir: folder });
        const page = await writeReport(folder);
        const summary = JSON.parse(readFileSync(join(folder, "summary.json"), "utf8")) as SummaryRow[];
        const plots = readdirSync(join(folder, "plots")).filter((name) => name.endsWith(".svg")).map((name) => name.slice(0, -4)).sort();
        return { folder, page, summary, plots };
      })(),
    );
  }
  return written.get(file)!;
}

describe.each(EXPERIMENTS)("the report of experiments/%s", (file) => {
  it("writes each plot as an SVG under ~1 MB and 1200 px, beside its Vega-Lite specification", async () => {
    const { folder, plots } = await reportOf(file);
    expect(plots.length).toBeGreaterThanOrEqual(2);
    for (const name of plots) {
      const svg = readFileSync(join(folder, "plots", `${name}.svg`), "utf8");
      expect(statSync(join(folder, "plots", `${name}.svg`)).size, name).toBeLessThan(1_000_000);
      const width = Number(/^<svg[^>]* width="([\d.]+)"/.exec(svg)?.[1]);
      expect(width, name).toBeGreaterThan(100);
      expect(width, name).toBeLessThanOrEqual(1200);
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${name}.vl.json`), "utf8")) as Record<string, unknown>;
      expect(spec.$schema).toMatch(/vega-lite/);
      expect(String(spec.description)).not.toBe("");
    }
  });

  it("accounts in each plot for every factor that varies over its points", async () => {
    const { folder, summary, plots } = await reportOf(file);
    for (const name of plots) {
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${name}.vl.json`), "utf8")) as Record<string, unknown>;
      expect(factorProblems(spec, summary), name).toEqual([]);
    }
  });

  it.skipIf(!haveChromium)("opens in headless Chromium at 1 200 px: every plot drew its marks, no text overlaps or is clipped, no mark leaves its panel, every panel header names its factor, the console is clean", async () => {
    const { page, folder, summary, plots } = await reportOf(file);
    // One Chromium for the page's DOM and the figures' geometry (a copy of the page with a measuring script).
    const { figures, dom, log } = figureGeometry(page, 1200);
    expect(log).not.toMatch(CONSOLE_ERROR);
    expect(figures.map((figure) => figure.id).sort()).toEqual(plots);
    for (const figure of figures) {
      expect({ id: figure.id, overlaps: figure.overlaps, clipped: figure.clipped, outside: figure.outside }).toEqual({ id: figure.id, overlaps: [], clipped: [], outside: [] });
      // "factor = value"; the updates-vs-bounds panels are bounds, headed by the bounds' names.
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${figure.id}.vl.json`), "utf8")) as { data: { values: { panel?: string }[] } };
      const panels = new Set(spec.data.values.flatMap((row) => (row.panel === undefined ? [] : [row.panel])));
      expect(figure.headers.filter((header) => !header.includes(" = ") && !panels.has(header)), figure.id).toEqual([]);
    }
    const marks = marksPerSvg(dom);
    expect(marks).toHaveLength(plots.length);
    // In page order: each plot drew at least one mark (a symbol, bar or tick) for each grid point its data name.
    const order = [...dom.matchAll(/<figure id="([a-z-]+)"/g)].map((match) => match[1]!);
    expect([...order].sort()).toEqual(plots);
    order.forEach((name, index) => {
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${name}.vl.json`), "utf8")) as { data: { values: { point?: number }[] } };
      const points = new Set(spec.data.values.flatMap((row) => (row.point === undefined ? [] : [row.point])));
      expect(points.size, name).toBeGreaterThan(0);
      expect(points.size, name).toBeLessThanOrEqual(summary.length);
      expect(marks[index], name).toBeGreaterThanOrEqual(points.size);
    });
    const png = chromiumScreenshot(page, screenshots, file.replace(/\W/g, "-"), 1250, 4000);
    expect(png).not.toBeNull();
    expect(statSync(png!).size).toBeGreaterThan(50_000);
  });
});

describe.each(["quick.json", "margins.json", "worst-case.json"])("the paper figures of experiments/%s", (file) => {
  it.skipIf(!haveChromium)("at 3.5 in and 7 in: no text overlaps or is clipped, no mark leaves its panel, as Chromium draws their SVGs", async () => {
    const { folder, plots } = await reportOf(file);
    const figures: string[] = [];
    for (const name of plots) {
      const spec = JSON.parse(readFileSync(join(folder, "plots", `${name}.vl.json`), "utf8")) as Record<string, unknown>;
      for (const width of PAPER_WIDTHS) figures.push(`<figure id="${name}.${width.label}">${(await fitPaperFigure(spec, width)).svg}</figure>`);
    }
    const page = join(folder, "paper-figures.html");
    writeFileSync(page, `<!doctype html><html><body>${figures.join("\n")}</body></html>`);
    const measured = figureGeometry(page, 1200).figures;
    expect(measured).toHaveLength(2 * plots.length);
    for (const figure of measured) expect({ id: figure.id, overlaps: figure.overlaps, clipped: figure.clipped, outside: figure.outside }).toEqual({ id: figure.id, overlaps: [], clipped: [], outside: [] });
  });
});
