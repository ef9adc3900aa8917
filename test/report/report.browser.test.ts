import { statSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";
import { chromiumDom, chromiumScreenshot, CONSOLE_ERROR, haveChromium, marksPerSvg } from "./chromium.js";

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
  });
});
