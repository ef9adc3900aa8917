import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { chromiumDom, chromiumScreenshot, CONSOLE_ERROR, haveChromium, marksPerSvg } from "./chromium.js";

function loaded(source: Record<string, unknown>): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "1".repeat(64) };
}

const folder = temporaryFolder();
const ready = runExperiment(
  loaded({ name: "report", description: "A test sweep <with markup>.", repeats: 4, grid: { n: 40, d: [2, 6], margin: [0.05, 0.2], eta: [0.5, 2], init: ["zero", "normal:1"] } }),
  { threads: 2, outDir: folder },
).then(() => writeReport(folder));

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
    const markdown = readFileSync(join(folder, "report.md"), "utf8").trimEnd().split("\n");
    expect(markdown.filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(16);
  });

  it.skipIf(!haveChromium)("renders in headless Chromium: every plot drawn, no console error", async () => {
    const page = await ready;
    const { status, dom, log } = chromiumDom(page);
    expect(status).toBe(0);
    // Rendered plots: each SVG holds marks of its data (points, lines, bars), not an empty frame.
    const marks = marksPerSvg(dom);
    expect(marks).toHaveLength(5);
    for (const count of marks) expect(count).toBeGreaterThan(5);
    expect(log).not.toMatch(CONSOLE_ERROR);
    const png = chromiumScreenshot(page, temporaryFolder("chromium-"), "report");
    expect(png).not.toBeNull();
    expect(statSync(png!).size).toBeGreaterThan(50_000);
  });
});
