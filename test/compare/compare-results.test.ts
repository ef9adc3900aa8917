import { writeRunsParquet } from "../../src/runner/write-runs-parquet.js";
import { InputError } from "../../src/vocabulary/input-error.js";
import { readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { adjustP } from "../../src/compare/adjust-p.js";
import { compareMarkdown } from "../../src/compare/compare-markdown.js";
import { fisherDropP } from "../../src/compare/fisher-exact.js";
import { compareResults } from "../../src/compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule } from "../../src/compare/fail-rule.js";
import { mannWhitney, mannWhitneyP } from "../../src/compare/mann-whitney.js";
import { wilcoxonRankSum } from "simple-statistics";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { ResultWriter, TABLE_FILES } from "../../src/export/result-writer.js";
import { recordTables } from "../../src/runner/table-record.js";
import type { RunRow } from "../../src/run/run-types.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { TableSink } from "../../src/runner/table-sink.js";
import { temporaryFolder } from "../helpers.js";

/** Data version 1: the p-values this file's comments quote were worked out on its data. */
function loaded(source: Record<string, unknown>, hash = "e".repeat(64)): LoadedExperiment {
  const pinned = { dataVersion: 1, ...source };
  return { path: "inline.json", experiment: parseExperiment(pinned, "inline"), source: pinned, hash };
}

/** A copy of a result folder whose rows went through `change` (the summaries recomputed from them). */
function rewritten(folder: string, change: (row: RunRow) => RunRow): string {
  const out = temporaryFolder();
  const sink = new TableSink(new ResultWriter(out));
  const rows = readFileSync(join(folder, "runs.jsonl"), "utf8").trimEnd().split("\n").map((line) => change(JSON.parse(line) as RunRow));
  sink.writeRows(rows);
  sink.close(true);
  // The manifest of the folder it copies, with its own tables and runs.parquet recorded (as a sweep that wrote them would).
  const runsParquet = writeRunsParquet(out);
  const manifest = JSON.parse(readFileSync(join(folder, "manifest.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(out, "manifest.json"), JSON.stringify({ ...manifest, runsParquet, tables: recordTables(out, TABLE_FILES) }));
  return out;
}

/** Point 0 makes 1000 more updates in every run: a change no test can miss. (Tripling them is not enough
 * to be sure on 12 runs: their updates range from 2 to 122, and the tripled sample overlaps them.) */
const slower = (row: RunRow): RunRow => (row.point === 0 ? { ...row, updates: row.updates! + 1000 } : row);
const grid = { n: 40, d: [2, 5], margin: [0.05, 0.2] };
/** Point 0 of that grid (its first: d 2, margin 0.05), as an outcome names it. */
const isPoint0 = (point: { d: number | null; margin: number | null } | null) => point !== null && point.d === 2 && point.margin === 0.05;

describe("mannWhitneyP", () => {
  it("is exact on small samples, ties included, and matches a hand computation of the normal approximation beyond", () => {
    // x = 1, 2, 3 against y = 4, 5, 6: the lowest of C(6, 3) = 20 rank sums, doubled: p = 0.1 (R's wilcox.test, exact).
    expect(mannWhitneyP([1, 2, 3], [4, 5, 6])).toBeCloseTo(0.1, 12);
    expect(mannWhitneyP([4, 5, 6], [1, 2, 3])).toBeCloseTo(0.1, 12);
    expect(mannWhitneyP([7, 7, 7], [7, 7])).toBe(1);
    expect(mannWhitneyP([], [1])).toBeNull();
    // 25 a side (50 > the exact limit): U = 0, mean 312.5, variance 25·25·51/12 = 2656.25, z = (312.5 − 0.5)/51.539 = 6.0537,
    // p = 2(1 − Φ(z)) ≈ 1.415e-9 (scipy's mannwhitneyu, asymptotic, continuity).
    const low = Array.from({ length: 25 }, (_, k) => k);
    const high = Array.from({ length: 25 }, (_, k) => 100 + k);
    expect(mannWhitney(low, high)!.exact).toBe(false);
    expect(mannWhitneyP(low, high)! / 1.415e-9).toBeCloseTo(1, 2);
  });

  it("gives exactly the share of the relabellings as extreme, against a brute-force enumeration, with ties", () => {
    // Every way to split the pooled values into n1 and n2 (C(10, 5) = 252), each equally likely under no difference.
    const x = [3, 3, 5, 7, 7];
    const y = [3, 7, 7, 8, 9];
    const pooled = [...x, ...y];
    const rankSum = (chosen: readonly number[]) => wilcoxonRankSum(chosen.map((k) => pooled[k]!), pooled.filter((_, k) => !chosen.includes(k)));
    const observed = rankSum([0, 1, 2, 3, 4]);
    let below = 0;
    let above = 0;
    let total = 0;
    const choose = (from: number, chosen: number[]) => {
      if (chosen.length === 5) {
        const sum = rankSum(chosen);
        total++;
        if (sum <= observed + 1e-9) below++;
        if (sum >= observed - 1e-9) above++;
        return;
      }
      for (let k = from; k < pooled.length; k++) choose(k + 1, [...chosen, k]);
    };
    choose(0, []);
    const tested = mannWhitney(x, y)!;
    expect(tested.exact).toBe(true);
    expect(tested.pRise).toBeCloseTo(below / total, 12);
    expect(tested.p).toBeCloseTo(Math.min(1, (2 * Math.min(below, above)) / total), 12);
  });
});

describe("compareResults", () => {
  const baseline = temporaryFolder();
  const few = temporaryFolder();
  const ready = Promise.all([
    runExperiment(loaded({ name: "base", repeats: 12, grid }), { threads: 1, outDir: baseline }),
    runExperiment(loaded({ name: "few", repeats: 2, grid }), { threads: 1, outDir: few }),
  ]);
  const rules = [parseFailRule("median:updates:10%")];

  it("passes a folder compared with itself", async () => {
    await ready;
    const report = compareResults(baseline, baseline, rules);
    // The rule and the two safety rules (converged, errors) at 4 points, and the rule and converged over the sweep.
    expect(report).toMatchObject({ result: "pass", matchedPoints: 4, counts: { pass: 14, fail: 0, inconclusive: 0 }, experimentChanged: false });
    expect(report.rules).toEqual(["converged", "errors", "median:updates:10%"]);
    // The same seeds on both sides: every test is paired.
    expect(new Set(report.outcomes.map((o) => o.test))).toEqual(new Set(["McNemar (paired)", null, "Wilcoxon signed-rank (paired)", "sign test over data sets (paired)", "Wilcoxon signed-rank over data sets (paired)"]));
  });

  it("takes the rules as --fail's texts too, and the default rules where none are given", async () => {
    await ready;
    const current = rewritten(baseline, slower);
    const parsed = compareResults(baseline, current, DEFAULT_FAIL_RULES.map(parseFailRule));
    expect(parsed.result).toBe("regression");
    expect(compareResults(baseline, current, DEFAULT_FAIL_RULES)).toEqual(parsed);
    expect(compareResults(baseline, current)).toEqual(parsed);
    expect(parsed.rules).toEqual(DEFAULT_FAIL_RULES);
    expect(compareResults(baseline, current, ["median:updates:10%"])).toEqual(compareResults(baseline, current, rules));
    // A rule of one's own keeps the safety rules, unless they are dropped on purpose.
    expect(compareResults(baseline, current, ["median:updates:10%"]).rules).toEqual(["converged", "errors", "median:updates:10%"]);
    expect(compareResults(baseline, current, ["median:updates:10%"], { safetyRules: false }).rules).toEqual(["median:updates:10%"]);
    expect(() => compareResults(baseline, current, ["median:updates"])).toThrow("fail rule median:updates: use converged, errors, or statistic:metric:threshold");
  });

  it("fails a real change that the test confirms", async () => {
    await ready;
    const report = compareResults(baseline, rewritten(baseline, slower), rules);
    expect(report.result).toBe("regression");
    // One point of four moved, and the sweep's mean change with it (paired: the 12 data sets of point 0 rose, the
    // others did not change). Before 0.8 the sweep took the median change over the points, 0 here: it passed.
    expect(report.counts).toEqual({ pass: 12, fail: 2, inconclusive: 0 });
    const failed = report.outcomes.find((outcome) => outcome.verdict === "fail" && outcome.point !== null)!;
    expect(failed.current).toBe(failed.baseline! + 1000);
    // 12 pairs, every difference +1000: the signed-rank test's smallest one-sided p (a rise), 1/2^12.
    expect(failed).toMatchObject({ test: "Wilcoxon signed-rank (paired)", p: 1 / 4096, effect: { estimate: 1000, low: 1000, high: 1000, method: "Hodges–Lehmann (paired)" } });
    expect(report.outcomes.find((o) => o.point === null && o.verdict === "fail")).toMatchObject({ rule: "median:updates:10%", test: "Wilcoxon signed-rank over data sets (paired)", p: 1 / 4096 });
    // Two-sided tests, as asked: the same failures, at twice the p.
    const both = compareResults(baseline, rewritten(baseline, slower), rules, { twoSided: true });
    expect(both.counts).toEqual(report.counts);
    expect(both.outcomes.find((outcome) => outcome.verdict === "fail" && outcome.point !== null)).toMatchObject({ p: 2 / 4096 });
    expect(compareMarkdown(report)).toContain("| fail | `median:updates:10%` | planted n=40 d=2 margin=0.05 offset=0");
  });

  it("passes an improvement (fewer updates) unless asked to fail a change either way (twoSided)", async () => {
    await ready;
    // Point 0 needs half its updates, rounded down (at least 1 where it made any).
    const faster = (row: RunRow): RunRow => (row.point === 0 && row.updates! > 1 ? { ...row, updates: Math.floor(row.updates! / 2) } : row);
    const current = rewritten(baseline, faster);
    const oneSided = compareResults(baseline, current, rules);
    expect(oneSided.result).toBe("pass");
    expect(oneSided.twoSided).toBe(false);
    const point0 = oneSided.outcomes.find((outcome) => isPoint0(outcome.point) && outcome.rule === "median:updates:10%")!;
    expect(point0.verdict).toBe("pass");
    expect(point0.change!).toBeLessThan(0);
    // The same fall fails when a change either way is a regression.
    const either = compareResults(baseline, current, rules, { twoSided: true });
    expect(either.result).toBe("regression");
    expect(either.outcomes.find((outcome) => isPoint0(outcome.point) && outcome.rule === "median:updates:10%")!.verdict).toBe("fail");
  });

  it("tests a spread rule (sd) for a change of spread, not of location", async () => {
    await ready;
    // Point 0's updates spread out tenfold about their median, which stays put (some fall below 0: a synthetic change).
    const runs = readFileSync(join(baseline, "runs.jsonl"), "utf8").trimEnd().split("\n").map((line) => JSON.parse(line) as RunRow).filter((row) => row.point === 0 && row.updates !== null);
    const middle = runs.map((row) => row.updates!).sort((x, y) => x - y)[Math.floor(runs.length / 2)]!;
    const wider = (row: RunRow): RunRow => (row.point === 0 && row.updates !== null ? { ...row, updates: middle + 10 * (row.updates - middle) } : row);
    const report = compareResults(baseline, rewritten(baseline, wider), [parseFailRule("sd:updates:10%")], { safetyRules: false });
    const point0 = report.outcomes.find((outcome) => isPoint0(outcome.point))!;
    expect(point0.test).toBe("Mann–Whitney U on distances from the median (spread)");
    expect(point0.change!).toBeGreaterThan(0);
    expect(point0.p!).toBeLessThan(0.01);
  });

  it("calls a change on too few runs inconclusive, not a failure", async () => {
    await ready;
    const report = compareResults(few, rewritten(few, slower), rules);
    // Two pairs at point 0: the smallest p of two signs is 0.5, at the point and over its two data sets.
    expect(report).toMatchObject({ result: "pass", counts: { pass: 12, fail: 0, inconclusive: 2 } });
    // And the report says so before any change: no check of two runs a point can fail, whatever moved.
    const tested = report.outcomes.filter((outcome) => outcome.detectable !== null);
    expect(tested.filter((outcome) => outcome.point !== null).every((outcome) => !outcome.detectable!.canFail)).toBe(true);
    expect(compareMarkdown(report)).toMatch(/\*\*Blind spots:\*\* \d+ of \d+ checks cannot fail however large the change/);
    expect(report.outcomes.filter((outcome) => outcome.rule === "errors").every((outcome) => outcome.detectable === null)).toBe(true);
  });

  it("fails a rise spread over every point that no point confirms alone, over the whole sweep (unpaired runs)", async () => {
    // Every converged run's updates doubled, 12 runs a point, under other seeds (the runs do not pair, as after a
    // change of the experiment's seed): each point's Mann–Whitney p is 0.02 to 0.27 (Holm: none below 0.05),
    // the sweep's 48 units give p = 0.0003.
    await ready;
    const risen = rewritten(baseline, (row) => (row.converged ? { ...row, seed: row.seed + 1, updates: row.updates! * 2 } : { ...row, seed: row.seed + 1 }));
    const report = compareResults(baseline, risen, rules);
    const sweep = report.outcomes.find((o) => o.point === null && o.rule === "median:updates:10%")!;
    expect(sweep).toMatchObject({ verdict: "fail", test: "permutation test over data sets (percentiles)", unit: "relative change", change: null });
    // The stratified estimate: every converged run doubled, so every point's geometric mean doubled: +100 %.
    expect(sweep.relativeChange).toBeCloseTo(1, 12);
    expect(sweep.effect!.low).toBeLessThanOrEqual(1);
    expect(sweep.effect!.high).toBeGreaterThanOrEqual(1);
    expect(report.outcomes.filter((o) => o.point !== null && o.verdict === "fail")).toEqual([]);
    // The same rise on paired runs: each point confirms it alone, and the sweep's mean relative change is +100 %.
    const paired = compareResults(baseline, rewritten(baseline, (row) => (row.converged ? { ...row, updates: row.updates! * 2 } : row)), rules);
    expect(paired.outcomes.filter((o) => o.point !== null && o.rule === "median:updates:10%").map((o) => o.verdict)).toEqual(["fail", "fail", "fail", "fail"]);
    expect(paired.outcomes.find((o) => o.point === null && o.rule === "median:updates:10%")!.relativeChange).toBeCloseTo(1, 12);
  });

  it("reports grid points found on one side only, and a changed experiment", async () => {
    await ready;
    const other = temporaryFolder();
    await runExperiment(loaded({ name: "other", repeats: 12, grid: { ...grid, d: [2, 7] } }, "f".repeat(64)), { threads: 1, outDir: other });
    const report = compareResults(baseline, other, rules);
    expect(report).toMatchObject({ matchedPoints: 2, experimentChanged: true, result: "regression" });
    expect(report.failures).toEqual(["2 grid points of the baseline missing from the current folder", "2 grid points new in the current folder"]);
    expect(report.onlyInBaseline.map((p) => p.d)).toEqual([5, 5]);
    expect(report.onlyInCurrent.map((p) => p.d)).toEqual([7, 7]);
    expect(compareMarkdown(report)).toContain("- **Note:** only in baseline: 2 grid points (planted n=40 d=5");
    // Accepted on request, still reported.
    const accepted = compareResults(baseline, other, rules, { acceptPointChanges: true });
    expect(accepted).toMatchObject({ result: "pass", failures: [] });
    expect(compareMarkdown(accepted)).toContain("d=5 margin=0.2 offset=0 bias=true eta=1 init=zero cyclic), accepted");
  });

  it("passes two folders that differ only in their random stream (data version 2 against 3, the same seeds), paired", async () => {
    // 0.12.2's mean of per-pair ratios (c − b)/b, right-skewed under no change, failed 20 of 20 such pairs at 20
    // repeats ("+46 %"). On the log scale the sweep's estimate centres on 0 and its interval holds it.
    const source = { name: "stream", seed: 11, repeats: 20, optimal: false, grid: { n: 100, d: [2, 10], margin: [0.05, 0.1, 0.2], offset: [0, 0.3], eta: [0.1, 1], init: ["zero", "normal:1"] } };
    const [v2, v3] = [temporaryFolder(), temporaryFolder()];
    await runExperiment(loaded({ ...source, dataVersion: 2 }), { threads: 1, outDir: v2 });
    await runExperiment(loaded({ ...source, dataVersion: 3 }), { threads: 1, outDir: v3 });
    const report = compareResults(v2, v3, DEFAULT_FAIL_RULES, { allowDataVersionChange: true });
    expect(report.failures).toEqual([]);
    const sweep = report.outcomes.find((o) => o.point === null && o.rule === "median:updates:5%")!;
    expect(sweep).toMatchObject({ test: "Wilcoxon signed-rank over data sets (paired)", unit: "relative change", baseline: null, current: null, change: null });
    expect(Math.abs(sweep.relativeChange!)).toBeLessThan(0.1);
    expect(sweep.effect!.low).toBeLessThanOrEqual(0);
    expect(sweep.effect!.high).toBeGreaterThanOrEqual(0);
    // The Markdown says it is relative, in percent, not "baseline 0, change +0.46".
    expect(compareMarkdown(report, true)).toMatch(/\| whole sweep \| - \| - \| [+-]?\d+(\.\d+)? % \(relative\) \| [+-]?[\d.]+ % \[/);
  });

  it("fails when no grid point matched, and refuses to accept a comparison of nothing", async () => {
    await ready;
    const other = temporaryFolder();
    await runExperiment(loaded({ name: "disjoint", repeats: 2, grid: { ...grid, n: 30 } }, "a".repeat(64)), { threads: 1, outDir: other });
    const report = compareResults(baseline, other, rules);
    expect(report).toMatchObject({ result: "regression", matchedPoints: 0, outcomes: [] });
    expect(report.failures[0]).toBe("no grid point in common: nothing was compared");
    // 0.12.2 passed with 0 checks: accepting points on one side only is not accepting an empty comparison.
    expect(() => compareResults(baseline, other, rules, { acceptPointChanges: true })).toThrow(
      new InputError(`${baseline} and ${other} have no grid point in common: nothing to compare (--accept-point-changes accepts points found on one side only, not a comparison of nothing)`),
    );
  });

  it("fails on any new error, without a test", async () => {
    await ready;
    const broken = rewritten(baseline, (row) => (row.run === 13 ? { ...row, status: "error", error: "boom", converged: null, updates: null } : row));
    const report = compareResults(baseline, broken, [parseFailRule("errors")]);
    expect(report.result).toBe("regression");
    expect(report.outcomes.filter((o) => o.verdict === "fail")).toMatchObject([{ rule: "errors", baseline: 0, current: 1, p: null, adjustedP: null }]);
  });

  it("fails on a drop of the converged share that a per-point test cannot confirm, over the whole sweep", async () => {
    await ready;
    // Half of every point's runs stop converging (6 of 12); each point's Fisher test and the test over the
    // sweep's units (the data sets the points share) see the drop. (With quick.json's 5 repeats a point,
    // 5/5 against 0/5 is p = 1/252 at a point: not enough among its 145 checks, which the sweep's test is for.)
    const capped = rewritten(baseline, (row) => (row.repeat % 2 === 0 ? { ...row, converged: false } : row));
    const report = compareResults(baseline, capped, [parseFailRule("converged")]);
    expect(report.result).toBe("regression");
    const sweep = report.outcomes.find((o) => o.point === null)!;
    expect(sweep).toMatchObject({ rule: "converged", baseline: 1, current: 0.5, verdict: "fail", test: "sign test over data sets (paired)" });
    expect(report.outcomes.filter((o) => o.point !== null && o.rule === "converged").every((o) => o.verdict !== "pass")).toBe(true);
    // A rise is no regression.
    expect(compareResults(capped, baseline, [parseFailRule("converged")]).result).toBe("pass");
  });

  it("refuses folders of different data versions unless asked", async () => {
    await ready;
    const copy = rewritten(baseline, (row) => row);
    const manifest = JSON.parse(readFileSync(join(copy, "manifest.json"), "utf8"));
    writeFileSync(join(copy, "manifest.json"), JSON.stringify({ ...manifest, resolved: { ...manifest.resolved, dataVersion: 2 } }));
    expect(() => compareResults(baseline, copy, rules)).toThrow(
      `${baseline} and ${copy} hold data of different data versions (1 and 2): their runs drew different data sets, so their differences are not the code's; --allow-data-version-change compares them anyway`,
    );
    const allowed = compareResults(baseline, copy, rules, { allowDataVersionChange: true });
    expect(allowed).toMatchObject({ result: "pass", dataVersionChanged: true });
    expect(compareMarkdown(allowed)).toContain("- **Note:** the data versions differ (1 and 2)");
  });

  it("puts the failures first and folds the rest, and says what the correction promises", async () => {
    await ready;
    const report = compareResults(baseline, rewritten(baseline, slower), [parseFailRule("median:updates:10%"), parseFailRule("p90:epochs:0")]);
    const markdown = compareMarkdown(report);
    expect(markdown.indexOf("| fail |")).toBeLessThan(markdown.indexOf("<details>"));
    expect(markdown).toContain("adjusted by Holm's method within each level (the sweep's checks, the points') and compared with 0.05, so when nothing changed the chance that any check of a level fails is at most 0.05");
    expect(compareMarkdown(compareResults(baseline, baseline, rules, { correction: "bh" }))).toContain("Benjamini–Hochberg");
  });

  it("reads ratio.<bound> as the max-margin ratio", async () => {
    await ready;
    const report = compareResults(baseline, baseline, [parseFailRule("p90:ratio.novikoff:0.05")]);
    expect(report.outcomes.find((o) => o.rule === "p90:ratio.novikoff:0.05")!.column).toBe("optimalNovikoffRatio");
  });
});

describe("the tests and corrections", () => {
  it("Fisher's exact test for a drop is the hypergeometric tail", () => {
    // The tail summed with exact integers (Python: sum(comb(K, x)·comb(N − K, n − x) for x ≤ b) / comb(N, n)):
    // 5/5 against 0/5 is 1/comb(10, 5) = 1/252; 9/10 against 4/10 is 0.0286378.
    expect(fisherDropP(5, 5, 0, 5)).toBeCloseTo(1 / 252, 12);
    expect(fisherDropP(9, 10, 4, 10)).toBeCloseTo(0.0286378, 6);
    expect(fisherDropP(3, 10, 8, 10)).toBeGreaterThan(0.99);
  });

  it("Holm and Benjamini–Hochberg adjust as R's p.adjust defines them", () => {
    // By hand, sorted 0.001, 0.01, 0.04, 0.2 (m = 4): Holm (4, 3, 2, 1)·p with a running max = 0.004, 0.03,
    // 0.08, 0.2; BH (4/1, 4/2, 4/3, 4/4)·p with a running min from the top = 0.004, 0.02, 0.05333, 0.2.
    const adjusted = (correction: "holm" | "bh") => adjustP([0.04, 0.001, null, 0.2, 0.01], correction).map((p) => (p === null ? null : Number(p.toFixed(5))));
    expect(adjusted("holm")).toEqual([0.08, 0.004, null, 0.2, 0.03]);
    expect(adjusted("bh")).toEqual([0.05333, 0.004, null, 0.2, 0.02]);
    expect(adjustP([0.04, null], "none")).toEqual([0.04, null]);
  });
});

describe("parseFailRule", () => {
  it("reads relative and absolute thresholds", () => {
    expect(parseFailRule("median:updates:10%")).toEqual({ kind: "statistic", text: "median:updates:10%", statistic: "median", metric: "updates", threshold: { value: 0.1, relative: true } });
    expect(parseFailRule("p90:ratio.novikoff:0.05")).toMatchObject({ threshold: { value: 0.05, relative: false } });
    expect(parseFailRule("converged")).toEqual({ kind: "converged", text: "converged" });
    expect(parseFailRule("errors")).toEqual({ kind: "errors", text: "errors" });
  });

  it("names what is wrong", () => {
    expect(() => parseFailRule("median:updates")).toThrow("fail rule median:updates: use converged, errors, or statistic:metric:threshold as in median:updates:10% or p90:ratio.novikoff:0.05");
    expect(() => parseFailRule("median:speed:1")).toThrow(
      "fail rule median:speed:1: speed is not a metric: use updates, epochs, ratio.<novikoff|snapp|hu|optimised|best>, or a column such as bestRatio or plantedHuRatio",
    );
    expect(() => parseFailRule("p95:updates:1")).toThrow('fail rule p95:updates:1: the statistic must be one of mean, sd, min, p10, p25, median, p75, p90, max (got "p95")');
    expect(() => parseFailRule("median:updates:-1")).toThrow("fail rule median:updates:-1: the threshold must be a number ≥ 0, or a percentage as in 10%");
  });
});
