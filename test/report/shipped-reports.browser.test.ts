import { mkdirSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import type { SummaryRow } from "../../src/run/summary-types.js";
import { loadExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { chromiumDom, chromiumScreenshot, CONSOLE_ERROR, haveChromium, marksPerSvg } from "./chromium.js";
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

  it.skipIf(!haveChromium)("opens in headless Chromium: every plot drew its marks, the console is clean", async () => {
    const { page, folder, summary, plots } = await reportOf(file);
    const { status, dom, log } = chromiumDom(page);
    expect(status).toBe(0);
    expect(log).not.toMatch(CONSOLE_ERROR);
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
