/**
 * Calibration of `compare` (docs/ci-regression-checks.md, "Calibration"): how often its default rules
 * fail when nothing but the seeds differ, and how often they catch a planted rise of the updates, by
 * repeats. Runs hundreds of sweeps through the library (not the CLI), so it lives outside the test suite.
 * It imports the compiled library (dist/) and runs as plain JavaScript (esbuild strips the types): under
 * tsx every worker thread loads tsx too, and each sweep's threads left ~16 of tsx's cache files open, so a
 * few hundred sweeps in one process ran out of file descriptors (EMFILE); plain node leaves none.
 *
 *   npm run build && npm run calibrate:compare -- [--pairs 200] [--power-pairs 40] [--threads 2] [--out table.md]
 *     [--nulls-only | --realistic-only | --unpaired-only]
 *
 * The sweep is experiments/quick.json's grid (48 grid points), max-margin separator off (the default
 * rules read updates, converged and errors only). A planted rise multiplies every converged run's updates,
 * and every ratio with them, by 1 + δ, written back through the tables' own writer (records, checks and
 * summaries recomputed).
 */
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { cpus, tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { compareResults } from "../dist/compare/compare-results.js";
import { DEFAULT_FAIL_RULES, parseFailRule } from "../dist/compare/fail-rule.js";
import { parseExperiment } from "../dist/experiment/load-experiment.js";
import { ResultWriter, TABLE_FILES } from "../dist/export/result-writer.js";
import { RUN_COLUMNS } from "../dist/run/run-columns.js";
import type { RunRow } from "../dist/run/run-types.js";
import { RecordStream } from "../dist/runner/recorded-runs.js";
import { runExperiment } from "../dist/runner/run-experiment.js";
import { TableSink } from "../dist/runner/table-sink.js";
import { recordTables } from "../dist/runner/table-record.js";

const { values: flags } = parseArgs({
  options: {
    pairs: { type: "string", default: "200" },
    "power-pairs": { type: "string", default: "40" },
    repeats: { type: "string", default: "30" },
    threads: { type: "string", default: "2" },
    out: { type: "string" },
    // Only part 3 (the paired, realistic regressions), for a quicker run.
    "realistic-only": { type: "boolean", default: false },
    // Pairs of each "another stream" null (data version 2 against 3; every draw redrawn under the same seeds), per repeats.
    "stream-pairs": { type: "string", default: "40" },
    // Only the nulls and the coverage (parts 0 and 4), the issue-55 targets.
    "nulls-only": { type: "boolean", default: false },
    // Only parts 1 and 2 (the unpaired null at the recommended repeats, power by repeats).
    "unpaired-only": { type: "boolean", default: false },
  },
});
const STREAM_PAIRS = Number(flags["stream-pairs"]);
const PAIRS = Number(flags.pairs);
const POWER_PAIRS = Number(flags["power-pairs"]);
const RECOMMENDED = Number(flags.repeats);
const THREADS = Number(flags.threads);
const REPEATS = [10, 20, 30, 50];
const RISES = [0.05, 0.1, 0.2, 0.5];

const quick = JSON.parse(readFileSync("experiments/quick.json", "utf8"));
const root = mkdtempSync(join(tmpdir(), "perceptron-lab-calibrate-"));
const rules = DEFAULT_FAIL_RULES.map(parseFailRule);

/** quick.json's sweep with this seed and repeats (the experiment `edit`ed, into a folder named by `variant`, if given). */
async function sweep(seed: number, repeats: number, edit: (source: typeof quick) => typeof quick = (source) => source, variant = ""): Promise<string> {
  const source = edit({ ...quick, name: `calibrate-${repeats}`, seed, repeats, optimal: false });
  const out = join(root, `r${repeats}-s${seed}${variant}`);
  const experiment = parseExperiment(source, "calibrate");
  // One experiment-file hash for every seed: the comparisons are of one experiment, run twice.
  await runExperiment({ path: "calibrate.json", experiment, source, hash: "c".repeat(64) }, { threads: THREADS, outDir: out });
  return out;
}

/**
 * `rows` written as a result folder `out` through the tables' own writer (records signed, summaries made anew),
 * with `from`'s manifest and its tables re-recorded (0.9: or every reader refuses the copy as changed by hand).
 */
function rewritten(from: string, out: string, rows: Iterable<RunRow>): string {
  mkdirSync(out);
  const sink = new TableSink(new ResultWriter(out));
  for (const row of rows) sink.writeRows([row]);
  sink.close(true);
  const manifest = JSON.parse(readFileSync(join(from, "manifest.json"), "utf8")) as Record<string, unknown>;
  writeFileSync(join(out, "manifest.json"), JSON.stringify({ ...manifest, tables: recordTables(out, TABLE_FILES) }, null, 2));
  return out;
}

/** A folder's records in run order, each through `map`. */
function* recordsIn(folder: string, map: (row: RunRow) => RunRow = (row) => row): Generator<RunRow> {
  const stream = new RecordStream(join(folder, "runs.jsonl"));
  for (let row = stream.take(); row !== null; row = stream.take()) yield map(row);
}

/** A copy of a folder whose converged runs made 1 + rise times the updates (ratios scaled with them). */
function risen(folder: string, rise: number): string {
  const scaled = RUN_COLUMNS.filter((column) => column === "updates" || column.endsWith("Ratio"));
  const raise = (row: RunRow): RunRow => {
    if (row.status !== "ok" || !row.converged) return row;
    const copy = { ...row } as Record<string, unknown>;
    for (const column of scaled) if (typeof copy[column] === "number") copy[column] = (copy[column] as number) * (1 + rise);
    return copy as unknown as RunRow;
  };
  return rewritten(folder, `${folder}-rise-${rise}`, recordsIn(folder, raise));
}

const fails = (baseline: string, current: string, correction: "holm" | "none" = "holm") => compareResults(baseline, current, rules, { correction }).result === "regression";
const share = (count: number, of: number) => `${count}/${of} = ${(count / of).toFixed(3)}`;

/**
 * A copy of `baseline` (a folder of `sweep(seed, repeats)`) as a code change would make it: the sweep run
 * again with the experiment `edit`ed (margins scaled, a lower epoch cap, another ŵ(0) law), its rows given back
 * the baseline's parameters and seeds by `restore` (the records re-signed, the summaries made anew, the tables
 * re-recorded), so that compare matches its points and pairs its runs.
 */
async function changed(baseline: string, seed: number, repeats: number, name: string, edit: (source: typeof quick) => typeof quick, restore: (row: RunRow, base: RunRow) => RunRow): Promise<string> {
  const drawn = await sweep(seed, repeats, edit, `-${name}-drawn`);
  const bases = recordsIn(baseline);
  const out = rewritten(baseline, `${baseline}-${name}`, recordsIn(drawn, (row) => restore(row, bases.next().value!)));
  rmSync(drawn, { recursive: true });
  return out;
}

/** The realistic regressions of the paired calibration (the audit's): each an edit of the experiment and what the rows get back. */
const REGRESSIONS: readonly { readonly name: string; readonly title: string; readonly edit: (source: typeof quick) => typeof quick; readonly restore: (row: RunRow, base: RunRow) => RunRow }[] = [
  {
    name: "margins",
    title: "data with margins × 0.9",
    edit: (source) => ({ ...source, grid: { ...source.grid, margin: (source.grid.margin as number[]).map((margin) => margin * 0.9) } }),
    restore: (row, base) => ({ ...row, margin: base.margin, seed: base.seed }),
  },
  {
    name: "epochs",
    title: "maxEpochs 100 000 → 6",
    edit: (source) => ({ ...source, maxEpochs: 6 }),
    restore: (row) => row,
  },
  {
    name: "init",
    title: "ŵ(0) normal:1 → normal:2 (half the points)",
    edit: (source) => ({ ...source, grid: { ...source.grid, init: (source.grid.init as string[]).map((init) => (init === "normal:1" ? "normal:2" : init)) } }),
    restore: (row, base) => ({ ...row, init: base.init, seed: base.seed }),
  },
];

const started = Date.now();
const lines: string[] = [];

/** Interval coverage, by kind of check: how many intervals held the true change, of how many. */
const coverage = new Map<string, { held: number; of: number; level: number }>();
function cover(kind: string, effect: { low: number; high: number; level: number } | null, truth: number): void {
  if (effect === null) return;
  const entry = coverage.get(kind) ?? { held: 0, of: 0, level: 0 };
  entry.of++;
  entry.level += effect.level;
  // A hair of tolerance for the bootstrap's and Newcombe's floating-point ends.
  if (effect.low <= truth + 1e-12 && truth - 1e-12 <= effect.high) entry.held++;
  coverage.set(kind, entry);
}
/** The kind of an outcome's interval, for the coverage table. */
function kindOf(outcome: { point: unknown; rule: string; test: string | null }): string {
  const where = outcome.point === null ? "whole sweep" : "point";
  return `${outcome.rule === "converged" ? "converged share" : "statistic"}, ${where}: ${outcome.test}`;
}
/** Every interval of a comparison whose true change is 0 (a null: nothing but seeds or the random stream differ). */
function coverNull(report: ReturnType<typeof compareResults>): void {
  for (const outcome of report.outcomes) if (outcome.effect !== null) cover(kindOf(outcome), outcome.effect, 0);
}

if (!flags["realistic-only"] && !flags["unpaired-only"]) {
  // 0. The nulls that broke 0.12: the same seeds drawn through another stream, compared as CI compares a code
  // change (paired: the same seeds). (a) Data version 2 against 3 (--allow-data-version-change); (b) every draw
  // redrawn under the same seeds, on quick.json with shuffled orders (the sweep run at another experiment seed,
  // its rows given the baseline's seeds back), as a change of how the shuffles or the data consume the stream.
  const streamLines: string[] = [];
  for (const repeats of [5, 20, 50]) {
    let version = 0;
    let redrawn = 0;
    let sweepOnly = 0;
    for (let k = 0; k < STREAM_PAIRS; k++) {
      const seed = 30_000 + k;
      const v2 = await sweep(seed, repeats, (source) => ({ ...source, dataVersion: 2 }), "-v2");
      const v3 = await sweep(seed, repeats, (source) => ({ ...source, dataVersion: 3 }), "-v3");
      const report = compareResults(v2, v3, rules, { allowDataVersionChange: true });
      coverNull(report);
      if (report.result === "regression") version++;
      if (report.outcomes.some((o) => o.point === null && o.verdict === "fail")) sweepOnly++;
      rmSync(v2, { recursive: true });
      rmSync(v3, { recursive: true });
      const shuffled = (source: typeof quick) => ({ ...source, grid: { ...source.grid, order: "shuffle" } });
      const base = await sweep(seed, repeats, shuffled, "-shuffle");
      const other = await changed(base, seed, repeats, "redrawn", (source) => ({ ...shuffled(source), seed: seed + 1_000_000 }), (row, b) => ({ ...row, seed: b.seed }));
      const again = compareResults(base, other, rules);
      coverNull(again);
      if (again.result === "regression") redrawn++;
      rmSync(base, { recursive: true });
      rmSync(other, { recursive: true });
    }
    streamLines.push(`| ${repeats} | ${share(version, STREAM_PAIRS)} | ${share(sweepOnly, STREAM_PAIRS)} | ${share(redrawn, STREAM_PAIRS)} |`);
    process.stderr.write(`another stream at ${repeats} repeats done (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
  lines.push(
    `The same seeds drawn through another stream (the null 0.12 failed): default rules, paired as CI compares, ${STREAM_PAIRS} pairs a row:`,
    "",
    "| repeats | data version 2 against 3: compare fails | of which a whole-sweep check | every draw redrawn (shuffled orders): compare fails |",
    "| ---: | ---: | ---: | ---: |",
    ...streamLines,
    "",
  );

  // 0b. Seed-only pairs of sweeps with unconverged runs (maxEpochs 10): the unpaired whole-sweep checks alone.
  let unconvergedFails = 0;
  let unconvergedSweep = 0;
  for (let k = 0; k < PAIRS; k++) {
    const capped = (source: typeof quick) => ({ ...source, maxEpochs: 10 });
    const a = await sweep(40_000 + 2 * k + 1, 5, capped, "-capped");
    const b = await sweep(40_000 + 2 * k + 2, 5, capped, "-capped");
    const report = compareResults(a, b, rules);
    coverNull(report);
    if (report.result === "regression") unconvergedFails++;
    if (report.outcomes.some((o) => o.point === null && o.verdict === "fail")) unconvergedSweep++;
    rmSync(a, { recursive: true });
    rmSync(b, { recursive: true });
  }
  lines.push(
    `Seeds only, on sweeps with unconverged runs (quick.json at maxEpochs 10, 5 repeats; ${PAIRS} pairs): compare fails ${share(unconvergedFails, PAIRS)}; a whole-sweep check alone ${share(unconvergedSweep, PAIRS)}.`,
    "",
  );

  // 4. Coverage where the converged share truly drops (maxEpochs 10 against 100 000, 5 repeats, paired): the true
  // change of each point's share from 400 repeats of each, and of the sweep's as their runs' mean.
  const TRUTH_REPEATS = 400;
  const capped = (source: typeof quick) => ({ ...source, maxEpochs: 10 });
  const truthShares = async (edit: (source: typeof quick) => typeof quick, variant: string) => {
    const folder = await sweep(50_000, TRUTH_REPEATS, edit, variant);
    const byPoint = new Map<number, { converged: number; runs: number }>();
    for (const row of recordsIn(folder)) {
      const entry = byPoint.get(row.point) ?? { converged: 0, runs: 0 };
      entry.runs++;
      if (row.status === "ok" && row.converged) entry.converged++;
      byPoint.set(row.point, entry);
    }
    rmSync(folder, { recursive: true });
    return byPoint;
  };
  const [full, short] = [await truthShares((source) => source, "-truth-full"), await truthShares(capped, "-truth-capped")];
  const pointTruth = new Map([...full].map(([point, entry]) => [point, short.get(point)!.converged / short.get(point)!.runs - entry.converged / entry.runs]));
  const sweepTruth = [...pointTruth.values()].reduce((sum, value) => sum + value, 0) / pointTruth.size;
  for (let k = 0; k < PAIRS; k++) {
    const seed = 60_000 + k;
    const a = await sweep(seed, 5);
    const b = await sweep(seed, 5, capped, "-capped");
    const report = compareResults(a, b, [parseFailRule("converged")]);
    const points = [...recordsIn(a)].reduce((map, row) => map.set(JSON.stringify([row.n, row.d, row.margin, row.offset, row.eta, row.init]), row.point), new Map<string, number>());
    for (const outcome of report.outcomes) {
      if (outcome.effect === null) continue;
      const p = outcome.point as { n: number; d: number; margin: number; offset: number; eta: number; init: string } | null;
      const truth = p === null ? sweepTruth : pointTruth.get(points.get(JSON.stringify([p.n, p.d, p.margin, p.offset, p.eta, p.init]))!)!;
      cover(`${kindOf(outcome)} (a true drop)`, outcome.effect, truth);
    }
    rmSync(a, { recursive: true });
    rmSync(b, { recursive: true });
  }
  lines.push(
    "Coverage of every interval compare reports (the share of intervals that held the true change; a null's is 0, a true drop's from 400 repeats), with the level the intervals state:",
    "",
    "| interval | held | stated level (mean) |",
    "| --- | ---: | ---: |",
    ...[...coverage].sort(([a], [b]) => a.localeCompare(b)).map(([kind, entry]) => `| ${kind} | ${share(entry.held, entry.of)} | ${(entry.level / entry.of).toFixed(3)} |`),
    "",
  );
  process.stderr.write(`nulls and coverage done (${Math.round((Date.now() - started) / 1000)} s)\n`);
}
if (!flags["realistic-only"] && !flags["nulls-only"]) {
  // 1. Null calibration at the recommended repeats, and the planted 10 % rise on the same pairs.
  let falseHolm = 0;
  let falseNone = 0;
  let detected = 0;
  for (let k = 0; k < PAIRS; k++) {
    const a = await sweep(2 * k + 1, RECOMMENDED);
    const b = await sweep(2 * k + 2, RECOMMENDED);
    if (fails(a, b)) falseHolm++;
    if (fails(a, b, "none")) falseNone++;
    if (fails(a, risen(b, 0.1))) detected++;
    rmSync(a, { recursive: true });
    rmSync(b, { recursive: true });
    rmSync(`${b}-rise-0.1`, { recursive: true });
    if ((k + 1) % 20 === 0) process.stderr.write(`null and 10 % pairs: ${k + 1}/${PAIRS} (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
  lines.push(
    `Default rules (\`${DEFAULT_FAIL_RULES.join("`, `")}\`), alpha 0.05, quick.json's 48 grid points at ${RECOMMENDED} repeats, ${PAIRS} pairs of folders that differ only in the experiment seed:`,
    "",
    "| | compare fails |",
    "| --- | ---: |",
    `| seeds only, Holm (the default) | ${share(falseHolm, PAIRS)} |`,
    `| seeds only, no correction | ${share(falseNone, PAIRS)} |`,
    `| updates +10 % at every point, Holm | ${share(detected, PAIRS)} |`,
    "",
  );

  // 2. Repeats against the smallest rise detected 95 % of the time.
  const header = `| repeats | ${RISES.map((rise) => `+${Math.round(rise * 100)} %`).join(" | ")} | smallest rise detected ≥ 95 % |`;
  lines.push(`Share of ${POWER_PAIRS} pairs (other seeds) in which compare fails, by repeats and planted rise of the updates:`, "", header, `| ---: | ${RISES.map(() => "---:").join(" | ")} | ---: |`);
  for (const repeats of REPEATS) {
    const hits = RISES.map(() => 0);
    for (let k = 0; k < POWER_PAIRS; k++) {
      const a = await sweep(10_000 + 2 * k + 1, repeats);
      const b = await sweep(10_000 + 2 * k + 2, repeats);
      RISES.forEach((rise, r) => {
        const c = risen(b, rise);
        if (fails(a, c)) hits[r]!++;
        rmSync(c, { recursive: true });
      });
      rmSync(a, { recursive: true });
      rmSync(b, { recursive: true });
    }
    const smallest = RISES.find((_, r) => hits[r]! / POWER_PAIRS >= 0.95);
    lines.push(`| ${repeats} | ${hits.map((hit) => (hit / POWER_PAIRS).toFixed(2)).join(" | ")} | ${smallest === undefined ? `above ${Math.round(RISES.at(-1)! * 100)} %` : `${Math.round(smallest * 100)} %`} |`);
    process.stderr.write(`power at ${repeats} repeats done (${Math.round((Date.now() - started) / 1000)} s)\n`);
  }
}

// 3. Paired, as CI compares (the same experiment and seeds, the code changed): every converged run's updates
// +10 % (exact), and the realistic regressions (REGRESSIONS), each against its own baseline.
if (!flags["nulls-only"] && !flags["unpaired-only"]) {
lines.push(
  "",
  `Paired (the same seeds, as a CI job compares a code change): share of ${POWER_PAIRS} baselines for which compare fails, by repeats:`,
  "",
  `| repeats | updates +10 % (exact) | ${REGRESSIONS.map((regression) => regression.title).join(" | ")} | seeds equal, nothing changed |`,
  `| ---: | ---: | ${REGRESSIONS.map(() => "---:").join(" | ")} | ---: |`,
);
for (const repeats of REPEATS) {
  const hits = [0, ...REGRESSIONS.map(() => 0), 0];
  for (let k = 0; k < POWER_PAIRS; k++) {
    const seed = 20_000 + k;
    const a = await sweep(seed, repeats);
    const raised = risen(a, 0.1);
    if (fails(a, raised)) hits[0]!++;
    rmSync(raised, { recursive: true });
    for (const [r, regression] of REGRESSIONS.entries()) {
      const candidate = await changed(a, seed, repeats, regression.name, regression.edit, regression.restore);
      if (fails(a, candidate)) hits[r + 1]!++;
      rmSync(candidate, { recursive: true });
    }
    if (fails(a, a)) hits[REGRESSIONS.length + 1]!++;
    rmSync(a, { recursive: true });
  }
  lines.push(`| ${repeats} | ${hits.map((hit) => (hit / POWER_PAIRS).toFixed(2)).join(" | ")} |`);
  process.stderr.write(`paired at ${repeats} repeats done (${Math.round((Date.now() - started) / 1000)} s)\n`);
}
}
lines.push("", `Measured on ${cpus()[0]?.model ?? "?"} (${cpus().length} cores), ${THREADS} threads, ${new Date().toISOString().slice(0, 10)}, ${Math.round((Date.now() - started) / 1000)} s.`);
rmSync(root, { recursive: true, force: true });
const table = `${lines.join("\n")}\n`;
process.stdout.write(table);
if (flags.out) writeFileSync(flags.out, table);
