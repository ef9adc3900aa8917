import { spawnSync } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { temporaryFolder } from "../helpers.js";

/**
 * Debian's chromium, found on PATH (so that .ci/run's stand-in, which records being called, catches a fast-tier
 * test that would start it). .ci/run installs it and sets REQUIRE_CHROMIUM: there the browser tests must run.
 */
const CHROMIUM = (process.env.PATH ?? "").split(":").map((folder) => join(folder, "chromium")).find((path) => existsSync(path)) ?? "chromium";
export const haveChromium = existsSync(CHROMIUM);
if (process.env.REQUIRE_CHROMIUM && !haveChromium) throw new Error("REQUIRE_CHROMIUM is set but there is no chromium on PATH");
if (!haveChromium) console.warn("Skipping the tests that open the report in a browser: no chromium on PATH (apt-get install chromium; .ci/run installs it)");

function flags(): string[] {
  const profile = temporaryFolder("chromium-");
  return ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync", `--user-data-dir=${profile}`];
}

/** The page as headless Chromium laid it out (its DOM), and what it logged: console errors show there. */
export function chromiumDom(page: string, width?: number): { status: number | null; dom: string; log: string } {
  const size = width === undefined ? [] : [`--window-size=${width},2000`];
  const result = spawnSync(CHROMIUM, [...flags(), ...size, "--enable-logging=stderr", "--v=0", "--dump-dom", `file://${page}`], { encoding: "utf8", timeout: 300_000, killSignal: "SIGKILL", maxBuffer: 256 * 1024 * 1024 });
  return { status: result.status, dom: result.stdout, log: result.stderr };
}

/** A screenshot of the page, `width` px wide, into `folder`: its path, or null when Chromium failed. */
export function chromiumScreenshot(page: string, folder: string, name: string, width = 1250, height = 2000): string | null {
  const png = join(folder, `${name}.png`);
  const shot = spawnSync(CHROMIUM, [...flags(), "--hide-scrollbars", `--window-size=${width},${height}`, `--screenshot=${png}`, `file://${page}`], { timeout: 300_000, killSignal: "SIGKILL" });
  return shot.status === 0 && existsSync(png) ? png : null;
}

/** A console error or an uncaught exception in Chromium's log. */
export const CONSOLE_ERROR = /CONSOLE.*(error|Uncaught)|Uncaught/i;

/**
 * The graphical elements (paths, lines, rects) inside each of Vega's mark groups (`role-mark`) of each
 * SVG of a page's DOM, in page order: axes and legends are other roles, so this counts only what the data drew.
 */
export function marksPerSvg(dom: string): number[] {
  return dom
    .split("<svg ")
    .slice(1)
    .map((svg) => {
      let count = 0;
      for (const group of svg.matchAll(/<g class="mark-[a-z]+ role-mark[^"]*"[^>]*>([\s\S]*?)<\/g>/g)) count += (group[1]!.match(/<(path|line|rect) /g) ?? []).length;
      return count;
    });
}

/** The page printed to PDF by headless Chromium (Letter, its default), into `folder`: the file's bytes, or null when it failed. */
export function chromiumPdf(page: string, folder: string, name: string): Buffer | null {
  const pdf = join(folder, `${name}.pdf`);
  const printed = spawnSync(CHROMIUM, [...flags(), "--no-pdf-header-footer", `--print-to-pdf=${pdf}`, `file://${page}`], { timeout: 300_000, killSignal: "SIGKILL" });
  return printed.status === 0 && existsSync(pdf) ? readFileSync(pdf) : null;
}
