import { describe, expect, it } from "vitest";
import { createProgress, isInteractive, progressLine } from "../../src/cli/progress.js";

describe("progress", () => {
  it("says runs done, rate and ETA", () => {
    // 480 of 1200 in 1.5 s: 320 runs/s, 720 left: 2.25 s.
    expect(progressLine(480, 1200, 1.5)).toBe("480/1200 runs (40%), 320 runs/s, ETA 2.3 s");
    expect(progressLine(3, 1000, 2)).toBe("3/1000 runs (0%), 1.5 runs/s, ETA 665 s");
    expect(progressLine(0, 10, 0)).toBe("0/10 runs (0%), 0.0 runs/s, ETA unknown");
  });

  it("writes a plain line every few seconds when not on a terminal, none at the end, none when quiet", () => {
    let time = 0;
    const lines: string[] = [];
    const plain = createProgress({ quiet: false, interactive: false, now: () => time, write: (text) => lines.push(text), every: 5 });
    for (const [at, done] of [[1, 10], [4, 40], [5, 50], [7, 70], [10.5, 105], [12, 200]] as const) {
      time = at * 1000;
      plain.update(done, 200);
    }
    expect(lines).toEqual(["50/200 runs (25%), 10 runs/s, ETA 15.0 s\n", "105/200 runs (52%), 10 runs/s, ETA 9.5 s\n"]);
    const quiet: string[] = [];
    const silent = createProgress({ quiet: true, interactive: false, now: () => 1e9, write: (text) => quiet.push(text) });
    silent.update(1, 2);
    expect(quiet).toEqual([]);
  });

  it("is a bar only on a terminal outside CI", () => {
    expect(isInteractive({ CI: "true" })).toBe(false);
  });
});
