import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { compareMarkdown } from "../../src/compare/compare-markdown.js";
import { compareResults } from "../../src/compare/compare-results.js";
import { parseFailRule } from "../../src/compare/fail-rule.js";
import { mannWhitneyP } from "../../src/compare/mann-whitney.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { ResultWriter } from "../../src/export/result-writer.js";
import type { RunRow } from "../../src/run/run-types.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { TableSink } from "../../src/runner/table-sink.js";
import { temporaryFolder } from "../helpers.js";

function loaded(source: Record<string, unknown>, hash = "e".repeat(64)): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash };
}

/** A copy of a result folder whose rows went through `change` (the summaries recomputed from them). */
function rewritten(folder: string, change: (row: RunRow) => RunRow): string {
  const out = temporaryFolder();
  const sink = new TableSink(new ResultWriter(out));
  const rows = readFileSync(join(folder, "runs.jsonl"), "utf8").trimEnd().split("\n").map((line) => change(JSON.parse(line) as RunRow));
  sink.writeRows(rows);
  sink.close(true);
  writeFileSync(join(out, "manifest.json"), readFileSync(join(folder, "manifest.json")));
  return out;
}

/** Point 0 makes 1000 more updates in every run: a change no test can miss. (Tripling them is not enough
 * to be sure on 12 runs: their updates range from 2 to 122, and the tripled sample overlaps them.) */
const slower = (row: RunRow): RunRow => (row.point === 0 ? { ...row, updates: row.updates! + 1000 } : row);
const grid = { n: 40, d: [2, 5], margin: [0.05, 0.2] };

describe("mannWhitneyP", () => {
  it("matches a hand computation of the normal approximation", () => {
    // x = 1, 2, 3 against y = 4, 5, 6: U = 0, mean 4.5, variance 3·3·7/12 = 5.25,
    // z = (4.5 − 0.5)/√5.25 = 1.7457, p = 2(1 − Φ(z)) ≈ 0.0809 (scipy's mannwhitneyu, asymptotic, continuity).
    expect(mannWhitneyP([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.0809, 4);
    expect(mannWhitneyP([4, 5, 6], [1, 2, 3])).toBeCloseTo(0.0809, 4);
    expect(mannWhitneyP([7, 7, 7], [7, 7])).toBe(1);
    expect(mannWhitneyP([], [1])).toBeNull();
  });
});

describe("compareResults", () => {
  const baseline = temporaryFolder();
  const few = temporaryFolder();
  const ready = Promise.all([
    runExperiment(loaded({ name: "base", repeats: 12, grid }), { threads: 2, outDir: baseline }),
    runExperiment(loaded({ name: "few", repeats: 2, grid }), { threads: 2, outDir: few }),
  ]);
  const rules = [parseFailRule("median:updates:10%")];

  it("passes a folder compared with itself", async () => {
    await ready;
    const report = compareResults(baseline, baseline, rules);
    expect(report).toMatchObject({ result: "pass", matchedPoints: 4, counts: { pass: 4, fail: 0, inconclusive: 0 }, experimentChanged: false });
  });

  it("fails a real change that the test confirms", async () => {
    await ready;
    const report = compareResults(baseline, rewritten(baseline, slower), rules);
    expect(report.result).toBe("regression");
    expect(report.counts).toEqual({ pass: 3, fail: 1, inconclusive: 0 });
    const failed = report.outcomes.find((outcome) => outcome.verdict === "fail")!;
    expect(failed.current).toBe(failed.baseline! + 1000);
    expect(failed.p!).toBeLessThan(0.001);
    expect(compareMarkdown(report)).toContain("| fail | `median:updates:10%` | planted n=40 d=2 margin=0.05 offset=0");
  });

  it("calls a change on too few runs inconclusive, not a failure", async () => {
    await ready;
    const report = compareResults(few, rewritten(few, slower), rules);
    expect(report).toMatchObject({ result: "pass", counts: { pass: 3, fail: 0, inconclusive: 1 } });
  });

  it("reports grid points found on one side only, and a changed experiment", async () => {
    await ready;
    const other = temporaryFolder();
    await runExperiment(loaded({ name: "other", repeats: 12, grid: { ...grid, d: [2, 7] } }, "f".repeat(64)), { threads: 2, outDir: other });
    const report = compareResults(baseline, other, rules);
    expect(report).toMatchObject({ matchedPoints: 2, experimentChanged: true });
    expect(report.onlyInBaseline.map((p) => p.d)).toEqual([5, 5]);
    expect(report.onlyInCurrent.map((p) => p.d)).toEqual([7, 7]);
    expect(compareMarkdown(report)).toContain("**Only in baseline:** 2 grid points");
  });

  it("reads ratio.<bound> as the max-margin ratio, and refuses a metric the summary does not have", async () => {
    await ready;
    const report = compareResults(baseline, baseline, [parseFailRule("p90:ratio.novikoff:0.05")]);
    expect(report.outcomes[0]!.column).toBe("optimalNovikoffRatio");
    expect(() => compareResults(baseline, baseline, [parseFailRule("median:speed:1")])).toThrow(
      "--fail median:speed:1: speed is not a metric of the summary (use updates, bestRatio, a …Ratio column, or ratio.<bound>)",
    );
  });
});

describe("parseFailRule", () => {
  it("reads relative and absolute thresholds", () => {
    expect(parseFailRule("median:updates:10%")).toEqual({ text: "median:updates:10%", statistic: "median", metric: "updates", threshold: { value: 0.1, relative: true } });
    expect(parseFailRule("p90:ratio.novikoff:0.05").threshold).toEqual({ value: 0.05, relative: false });
  });

  it("names what is wrong", () => {
    expect(() => parseFailRule("median:updates")).toThrow("--fail median:updates: use statistic:metric:threshold, as in median:updates:10% or p90:ratio.novikoff:0.05");
    expect(() => parseFailRule("p95:updates:1")).toThrow('--fail p95:updates:1: the statistic must be one of mean, sd, min, median, p90, max (got "p95")');
    expect(() => parseFailRule("median:updates:-1")).toThrow("--fail median:updates:-1: the threshold must be a number ≥ 0, or a percentage as in 10%");
  });
});
