import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { writeReport } from "../../src/report/write-report.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { temporaryFolder } from "../helpers.js";

const CHROMIUM = "/usr/bin/chromium";
/** .ci/run installs Debian's chromium and sets REQUIRE_CHROMIUM: there the browser test must run. */
const haveChromium = existsSync(CHROMIUM);
if (process.env.REQUIRE_CHROMIUM && !haveChromium) throw new Error(`REQUIRE_CHROMIUM is set but ${CHROMIUM} is missing`);

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
    const plots = readdirSync(join(folder, "plots")).sort();
    expect(plots).toEqual(["eta-and-init.svg", "ratio-vs-dimension.svg", "ratio-vs-margin.svg", "updates-per-point.svg", "updates-vs-bounds.svg"]);
    expect(html.match(/<svg /g)).toHaveLength(plots.length);
    // Self-contained: no script, no stylesheet or image fetched from anywhere.
    expect(html).not.toMatch(/<script|<link|src="|url\(/i);
    expect(html).toContain("A test sweep &lt;with markup&gt;.");
    const markdown = readFileSync(join(folder, "report.md"), "utf8").trimEnd().split("\n");
    expect(markdown.filter((line) => /^\| \d+ \|/.test(line))).toHaveLength(16);
  });

  it.skipIf(!haveChromium)("renders in headless Chromium: every plot drawn, no console error", async () => {
    const page = await ready;
    const profile = temporaryFolder("chromium-");
    const flags = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`];
    const dom = spawnSync(CHROMIUM, [...flags, "--enable-logging=stderr", "--v=0", "--dump-dom", `file://${page}`], { encoding: "utf8", timeout: 60_000 });
    expect(dom.status).toBe(0);
    // Rendered plots: each SVG holds Vega's marks (axes, points, lines), not an empty frame.
    const svgs = dom.stdout.split("<svg ").slice(1);
    expect(svgs).toHaveLength(5);
    for (const svg of svgs) expect((svg.match(/<path /g) ?? []).length).toBeGreaterThan(10);
    expect(dom.stderr).not.toMatch(/CONSOLE.*(error|Uncaught)|Uncaught/i);
    const png = join(profile, "report.png");
    const shot = spawnSync(CHROMIUM, [...flags, "--hide-scrollbars", "--window-size=1250,2000", `--screenshot=${png}`, `file://${page}`], { timeout: 60_000 });
    expect(shot.status).toBe(0);
    expect(statSync(png).size).toBeGreaterThan(50_000);
  });
});
