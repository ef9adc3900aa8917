import { statSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { chromiumDom, chromiumPdf, chromiumScreenshot, CONSOLE_ERROR, haveChromium, marksPerSvg } from "./chromium.js";
import { figureGeometry } from "./figure-geometry.js";

/** The report of report.test.ts's sweep, as a reader's browser lays it out. */
const source = { name: "report", description: "A test sweep <with markup>.", repeats: 4, grid: { n: 40, d: [2, 6], margin: [0.05, 0.2], eta: [0.5, 2], init: ["zero", "normal:1"] } };
const folder = temporaryFolder();
const ready = haveChromium
  ? runExperiment({ path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "1".repeat(64) }, { threads: 2, outDir: folder }).then(() => writeReport(folder))
  : Promise.resolve("");

describe("report", () => {
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
    // Printed: a PDF of several pages, its figures scaled to the page (their SVGs carry a viewBox).
    const pdf = chromiumPdf(page, temporaryFolder("chromium-"), "report");
    expect(pdf).not.toBeNull();
    expect(pdf!.subarray(0, 5).toString("latin1")).toBe("%PDF-");
    expect(pdf!.toString("latin1").match(/\/Type\s*\/Page\b/g)!.length).toBeGreaterThan(2);
  });
});

describe("the figures' geometry check", () => {
  it.skipIf(!haveChromium)("finds texts that overlap as drawn (rotated ones by their turned boxes), text past the figure, a mark past its panel, and the headers", () => {
    const page = join(temporaryFolder("geometry-"), "page.html");
    // Vega's structure in small: a facet cell's item with its background, a data mark, a header's title.
    const svg = `<svg width="300" height="200" xmlns="http://www.w3.org/2000/svg" font-family="sans-serif" font-size="12">
      <g class="mark-group role-column-header"><g class="mark-group role-title"><text class="mark-text role-title-text" x="10" y="12">offset = 0</text></g></g>
      <g class="mark-group role-axis"><g class="mark-text role-axis-label"><text x="20" y="60">overlapping one</text><text x="30" y="62">overlapping two</text>
        <text x="150" y="120" transform="rotate(-55 150 120)">turned far apart</text><text x="200" y="120" transform="rotate(-55 200 120)">turned far apart</text>
        <text x="280" y="190">past the edge</text></g></g>
      <g class="mark-group role-scope cell"><g transform="translate(0,0)"><path class="background" d="M100,20h100v100h-100Z"/>
        <g><g class="mark-symbol role-mark marks"><path d="M150,60h4v4h-4Z"/><path d="M250,60h4v4h-4Z"/></g></g></g></g>
    </svg>`;
    writeFileSync(page, `<!doctype html><html><body><figure id="made-up">${svg}</figure></body></html>`);
    const [figure] = figureGeometry(page).figures;
    expect(figure!.overlaps).toEqual([["axis-label: overlapping one", "axis-label: overlapping two"]]);
    expect(figure!.clipped).toEqual(["axis-label: past the edge"]);
    expect(figure!.outside).toHaveLength(1);
    expect(figure!.outside[0]).toMatch(/^symbol marks at 250,60 in 100,20\+100x100$/);
    expect(figure!.headers).toEqual(["offset = 0"]);
  });
});
