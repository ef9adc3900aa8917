import { describe, expect, it } from "vitest";
import { weightedHolm, adjustP } from "../../src/compare/adjust-p.js";
import { compareResults } from "../../src/compare/compare-results.js";
import { signTestP } from "../../src/compare/sign-test.js";
import { pairedShift, shareChange, twoSampleShift } from "../../src/compare/effect-size.js";
import { signedRank, signedRankP } from "../../src/compare/signed-rank.js";
import { mannWhitney } from "../../src/compare/mann-whitney.js";
import { meanWithInterval, studentQuantile95 } from "../../src/compare/resampling.js";
import { parseExperiment, type LoadedExperiment } from "../../src/experiment/load-experiment.js";
import { runExperiment } from "../../src/runner/run-experiment.js";
import { readResultFolder } from "../../src/runner/read-result-folder.js";
import { temporaryFolder } from "../helpers.js";

describe("effect sizes", () => {
  it("Student's t quantile for the sweep's paired interval: exact at 1 and 2 degrees of freedom, within 0.005 beyond", () => {
    // R's qt(0.975, ν): 12.7062, 4.3027, 3.1824, 2.7764, 2.2281, 2.0423, 1.9840 (ν = 1, 2, 3, 4, 10, 30, 100).
    const expected: [number, number][] = [[1, 12.7062], [2, 4.3027], [3, 3.1824], [4, 2.7764], [10, 2.2281], [30, 2.0423], [100, 1.984]];
    for (const [nu, q] of expected) expect(Math.abs(studentQuantile95(nu) - q), `ν = ${nu}`).toBeLessThan(0.005);
    const interval = meanWithInterval([1, 2, 3, 4, 5])!;
    // mean 3, s = √2.5, t(4) = 2.7764: 3 ± 2.7764·1.5811/√5 = 3 ± 1.9632.
    expect(interval.mean).toBe(3);
    expect(interval.high - 3).toBeCloseTo(1.9632, 2);
  });

  it("Hodges–Lehmann shifts with the rank tests' intervals at the level they achieve, and changes of shares with Newcombe's", () => {
    // Walsh averages of 1..5, sorted: 1, 1.5, 2, 2, 2.5, 2.5, 3, 3, 3, 3.5, 3.5, 4, 4, 4.5, 5: median 3. At n = 5 no
    // rank interval reaches 95 %: the widest, the range (C = 1), covers 1 − 2·2⁻⁵ = 93.75 %, and says so.
    expect(pairedShift([1, 2, 3, 4, 5])).toEqual({ estimate: 3, low: 1, high: 5, level: 0.9375, method: "Hodges–Lehmann (paired)" });
    // Differences of {4, 5, 6} and {1, 2, 3}: 1, 2, 2, 3, 3, 3, 4, 4, 5: median 3; 3 a side: the range, 1 − 2/20 = 90 %.
    expect(twoSampleShift([1, 2, 3], [4, 5, 6])).toMatchObject({ estimate: 3, low: 1, high: 5, level: 0.9 });
    // 10 pairs: C = 9 (P(W₊ ≤ 8) = 0.0244 ≤ 0.025 < P(W₊ ≤ 9) = 0.0322; R's qsignrank(0.025, 10) = 9): level 1 − 2·0.0244.
    const ten = pairedShift(Array.from({ length: 10 }, (_, k) => k + 1))!;
    expect(ten.level).toBeCloseTo(1 - 2 * (25 / 1024), 12);
    // 30 pairs each +10 ± a little: the interval is narrow around 10.
    const shift = pairedShift(Array.from({ length: 30 }, (_, k) => 10 + ((k % 5) - 2) / 10))!;
    expect(shift.estimate).toBeCloseTo(10, 12);
    expect(shift.low).toBeGreaterThan(9.8);
    expect(shift.high).toBeLessThan(10.2);
    // 5 of 5 pairs lost their convergence: the share fell by 1, and the interval is not the point [−1, −1].
    const lost = shareChange({ paired: true, both: 0, lost: 5, gained: 0, neither: 0 })!;
    expect(lost).toMatchObject({ estimate: -1, low: -1 });
    // Wilson's intervals of 5/5 and 0/5, [0.5655, 1] and [0, 0.4345], φ undefined (0): −1 + √(0.4345² + 0.4345²).
    expect(lost.high).toBeCloseTo(-0.3855, 3);
    // No run lost or gained: not [0, 0] (0.12's Wald interval), but the shares' uncertainty.
    const none = shareChange({ paired: true, both: 5, lost: 0, gained: 0, neither: 0 })!;
    expect(none.low).toBeLessThan(-0.2);
    expect(none.high).toBeGreaterThan(0.2);
    // Newcombe (1998), Statistics in Medicine 17:873, example (a): 56/70 against 48/80, method 10: 0.0524 to 0.3339.
    const share = shareChange({ paired: false, before: 48, beforeRuns: 80, after: 56, afterRuns: 70 })!;
    expect(share.estimate).toBeCloseTo(0.2, 12);
    expect(share.low).toBeCloseTo(0.0524, 4);
    expect(share.high).toBeCloseTo(0.3339, 4);
    expect(pairedShift([])).toBeNull();
  });

  it("Newcombe's intervals cover near their level where Wald's did not (simulated, 5 and 20 pairs)", () => {
    // Paired outcomes with P(converged before) = 0.9, after = 0.6, correlated (both converge with 0.55):
    // the true change is −0.3. 0.12's Wald interval covered ~64 % of such points at 5 repeats.
    let seed = 12345;
    const next = () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    for (const n of [5, 20]) {
      let covered = 0;
      const trials = 2000;
      for (let t = 0; t < trials; t++) {
        const cells = { both: 0, lost: 0, gained: 0, neither: 0 };
        for (let k = 0; k < n; k++) {
          const u = next();
          if (u < 0.55) cells.both++;
          else if (u < 0.9) cells.lost++;
          else if (u < 0.95) cells.gained++;
          else cells.neither++;
        }
        const interval = shareChange({ paired: true, ...cells })!;
        if (interval.low <= -0.3 && -0.3 <= interval.high) covered++;
      }
      expect(covered / trials, `${n} pairs`).toBeGreaterThan(0.93);
    }
  });

  it("select the ranked averages and differences without listing them: the same values as sorting them all, ties, zeros and negatives included", () => {
    // The listing the selection replaced (and capped at 2·10⁶ pairs): every pair, sorted, and its ranks read off.
    const listed = (values: number[], c: (m: number) => number) => {
      values.sort((a, b) => a - b);
      const m = values.length;
      const median = m % 2 === 1 ? values[(m - 1) / 2]! : (values[m / 2 - 1]! + values[m / 2]!) / 2;
      return { estimate: median, low: values[c(m) - 1]!, high: values[m - c(m)]! };
    };
    // The interval's ends are values of the listing, at ranks C and M + 1 − C for one C.
    const ranksOf = (values: number[], low: number, high: number) => {
      const sorted = [...values].sort((a, b) => a - b);
      const m = sorted.length;
      for (let c = 1; c <= m; c++) if (sorted[c - 1] === low && sorted[m - c] === high) return [low, high];
      return ["no C gives", low, high];
    };
    const random = (seed: number) => () => ((seed = (seed * 1103515245 + 12345) % 2147483648), seed / 2147483648);
    for (let trial = 0; trial < 200; trial++) {
      const next = random(trial + 1);
      const n = 1 + Math.floor(next() * 40);
      const m = 1 + Math.floor(next() * 40);
      // Integer steps (ties), a negative range, and zeros.
      const draw = () => (trial % 3 === 0 ? Math.round(next() * 6) - 3 : (next() - 0.3) * 1e3);
      const d = Array.from({ length: n }, draw);
      const walsh: number[] = [];
      for (let i = 0; i < n; i++) for (let j = i; j < n; j++) walsh.push((d[i]! + d[j]!) / 2);
      const cPaired = (total: number) => Math.max(1, Math.floor(total / 2 - 1.959963984540054 * Math.sqrt((n * (n + 1) * (2 * n + 1)) / 24)));
      // At these sizes C comes from the exact distributions: the listing takes the C the interval's level implies.
      const paired = pairedShift(d)!;
      expect(paired.estimate).toBe(listed(walsh, cPaired).estimate);
      expect([paired.low, paired.high]).toEqual(ranksOf(walsh, paired.low, paired.high));
      const x = Array.from({ length: n }, draw);
      const y = Array.from({ length: m }, draw);
      const differences = x.flatMap((a) => y.map((b) => b - a));
      const cTwo = (total: number) => Math.max(1, Math.floor(total / 2 - 1.959963984540054 * Math.sqrt((n * m * (n + m + 1)) / 12)));
      const two = twoSampleShift(x, y)!;
      expect(two.estimate).toBe(listed(differences, cTwo).estimate);
      expect([two.low, two.high]).toEqual(ranksOf(differences, two.low, two.high));
    }
    // Integer counts, most pairs tied: Hodges–Lehmann's shift is 0, yet the rank statistics see the rise, and
    // their direction (not the shift's sign) makes the one-sided p of a rise.
    const before = [...Array(100).fill(4), ...Array(50).fill(5)];
    const after = [...Array(50).fill(4), ...Array(100).fill(5)];
    expect(twoSampleShift(before, after)!.estimate).toBe(0);
    const tested = mannWhitney(before, after)!;
    expect(tested.rise).toBeGreaterThan(0);
    expect(tested.p).toBeLessThan(1e-6);
    expect(mannWhitney(after, before)!.rise).toBeLessThan(0);
    const moves = [...Array(60).fill(0), ...Array(30).fill(1), ...Array(10).fill(-1)];
    expect(pairedShift(moves)!.estimate).toBe(0);
    expect(signedRank(moves)!.rise).toBeGreaterThan(0);
    expect(signedRank(moves.map((value) => -value))!.rise).toBeLessThan(0);
    // 5 000 runs a side: 25·10⁶ differences, no longer listed (nor replaced by the difference of means).
    const large = Array.from({ length: 5000 }, (_, k) => k % 97);
    expect(twoSampleShift(large, large.map((value) => value + 3))).toMatchObject({ estimate: 3, method: "Hodges–Lehmann" });
  });
});

describe("the paired tests", () => {
  it("signed-rank: exact two-sided p-values, zeros dropped, ties at their mid-ranks; the normal approximation beyond 60 differences", () => {
    // scipy.stats.wilcoxon: [1..5] 0.0625, [−1, 2..5] 0.125 (exact).
    expect(signedRankP([1, 2, 3, 4, 5])).toBe(0.0625);
    expect(signedRankP([0, 0, 1, 2, 3, 4, 5])).toBe(0.0625);
    expect(signedRankP([-1, 2, 3, 4, 5])).toBe(0.125);
    // Three tied positives: mid-rank 2 each, the sum 6 of 6 possible: P = 1/8 a side.
    expect(signedRankP([1, 1, 1])).toBe(0.25);
    expect(signedRankP([0, 0])).toBeNull();
    expect(signedRankP([3, -3])).toBe(1);
    // 77 differences (numpy, rounded to 0.1: many ties): scipy's wilcoxon(method="approx", correction=True) 0.06327670625606902.
    expect(signedRankP([2.3, -2.3, 0.7, -0.3, -0.2, 0.1, -1.7, 0.1, -0.6, 3.6, 0.5, -0.1, -0.4, -0.8, -0.1, 0.8, 0.1, 1.3, 0.1, 0.3, 1.8, 0.8, -0.2, 0.1, 0.8, 2.2, 0.1, 1.3, -0.6, 1.2, 0.9, 0.4, 1.0, -2.5, 1.3, -0.7, -1.4, 0.6, 1.0, -0.1, -0.8, 0.3, 0.2, 1.7, 1.0, 0.5, 1.4, 0.1, -0.6, 0.9, 0.9, 0.1, -0.5, 0.5, -2.2, 1.0, 0.8, -1.3, 0.4, -0.7, 1.1, -1.7, -0.6, 1.0, 1.5, -1.9, -0.2, 0.6, -0.3, 1.9, -0.9, 0.7, -0.7, 1.7, 0.3, -0.1, -1.4])).toBeCloseTo(0.0632767, 5);
  });

  it("sign test (McNemar's exact test): the binomial's upper tail, exactly to 1 000 trials, approximately beyond", () => {
    expect(signTestP(5, 5)).toBe(1 / 32);
    expect(signTestP(3, 5)).toBe(0.5);
    expect(signTestP(0, 5)).toBe(1);
    expect(signTestP(0, 0)).toBe(1);
    // scipy.stats.binom.sf(529, 1000, 0.5) = 0.031011597549181716; sf(1040, 2000, 0.5) = 0.03504046582404104.
    expect(signTestP(530, 1000)).toBeCloseTo(0.0310116, 6);
    expect(signTestP(1041, 2000)).toBeCloseTo(0.0350405, 3);
  });

  it("weighted Holm: equal weights are Holm; weights share alpha at the first step", () => {
    const ps = [0.04, 0.001, null, 0.2, 0.01];
    expect(weightedHolm(ps, [1, 1, 1, 1, 1])).toEqual(adjustP(ps, "holm"));
    // 0.03125 with weight 0.8 beside 0.5 with weight 0.2: 0.03125·1/0.8 = 0.039 (below 0.05), then 0.5·0.2/0.2.
    const [safety, statistic] = weightedHolm([1 / 32, 0.5], [0.8, 0.2]);
    expect(safety).toBeCloseTo(0.03125 / 0.8, 12);
    expect(statistic).toBeCloseTo(0.5, 12);
  });
});

function loaded(source: Record<string, unknown>): LoadedExperiment {
  return { path: "inline.json", experiment: parseExperiment(source, "inline"), source, hash: "c".repeat(64) };
}

describe("the gate at 5 repeats", () => {
  it("fails a point whose 5 paired runs all stop converging, beside the default rules, and passes the candidate against itself", async () => {
    // Margins 0.3 and 0.25 (a few epochs) and 0.01 (many more): a candidate whose epoch cap the hard point's
    // runs no longer reach, as a code change that slowed convergence there would.
    const source = { name: "gate", seed: 4, repeats: 5, optimal: false, grid: { n: 40, d: 2, margin: [0.3, 0.25, 0.01] } };
    const baseline = temporaryFolder();
    await runExperiment(loaded(source), { threads: 1, outDir: baseline });
    const runs = [...readResultFolder(baseline).runs()];
    const easy = Math.max(...runs.filter((row) => row.margin !== 0.01).map((row) => row.epochs!));
    // The premise: a cap that every easy run meets and no run of the hard point does.
    expect(Math.min(...runs.filter((row) => row.margin === 0.01).map((row) => row.epochs!))).toBeGreaterThan(easy);
    const candidate = temporaryFolder();
    await runExperiment(loaded({ ...source, maxEpochs: easy }), { threads: 1, outDir: candidate });
    const after = [...readResultFolder(candidate).runs()];
    const lost = after.filter((row) => row.converged === false);
    expect(new Set(lost.map((row) => row.point)).size).toBe(1);
    expect(lost).toHaveLength(5);

    const report = compareResults(baseline, candidate);
    expect(report.result).toBe("regression");
    const sweep = report.outcomes.find((o) => o.point === null && o.rule === "converged")!;
    expect(sweep).toMatchObject({ test: "sign test over data sets (paired)", p: 1 / 32, verdict: "fail" });
    // The point's own McNemar test says where (p 1/32 too, Holm over the points' checks: inconclusive).
    expect(report.outcomes.find((o) => o.point !== null && o.rule === "converged" && o.current === 0)).toMatchObject({ test: "McNemar (paired)", p: 1 / 32 });
    expect(compareResults(candidate, candidate).result).toBe("pass");
    // A rule of one's own keeps the safety rules: the collapse still fails the gate, with one statistic rule or
    // three (0.12.2 gave each rule a weight of 0.3: with a second, the safety check's adjusted p was 0.058), and at alpha 0.04.
    expect(compareResults(baseline, candidate, ["p90:epochs:1000%"]).result).toBe("regression");
    const three = ["median:updates:5%", "p90:epochs:1000%", "mean:updates:50%"];
    expect(compareResults(baseline, candidate, three).result).toBe("regression");
    expect(compareResults(baseline, candidate, three, { alpha: 0.04 }).result).toBe("regression");
    expect(compareResults(baseline, candidate, three).outcomes.find((o) => o.point === null && o.rule === "converged")!.adjustedP).toBeCloseTo(1 / 32 / 0.8, 12);
    // Without the safety rules the user's rule alone decides: the epochs of the converged runs did not move.
    expect(compareResults(baseline, candidate, ["p90:epochs:1000%"], { safetyRules: false }).result).toBe("pass");
  });
});
