import { BOUND_KEYS, type BoundsDeclaration } from "../src/bounds/bound-choice.js";
import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import { generateData } from "../src/generators/generate-data.js";
import { drawInitialWeights } from "../src/perceptron/initial-weights.js";
import type { DataVersion } from "../src/random/data-version.js";
import { createDraws } from "../src/random/random-draws.js";
import type { DataSet } from "../src/vocabulary/data-set.js";
import { pick, POINT_KEYS, type PointParameters, type RunRow, type RunSpec } from "../src/run/run-types.js";
import { LineFile } from "../src/export/line-file.js";
import { JournalWriter } from "../src/runner/journal-stream.js";
import { recordedLayout } from "../src/run/table-layout.js";
import { parquetRowGroup, writeRunsParquet } from "../src/runner/write-runs-parquet.js";
import type { Manifest } from "../src/runner/manifest.js";
import { recordsOf } from "../src/runner/read-result-folder.js";
import type { RunSettings, SweepPoint } from "../src/sweep/run-batch.js";
import { toLearnerCoordinates, type LearnerData } from "../src/perceptron/learner-coordinates.js";

export { removeTemporaryFolders, temporaryFolder } from "./temporary-folders.js";

/** The four text tables of a result folder, by file name, and runs.parquet's SHA-256 where it has one: what "byte-identical tables" compares. */
export function resultTables(folder: string): Record<string, string> {
  const tables = Object.fromEntries(["runs.csv", "runs.jsonl", "summary.csv", "summary.json"].map((file) => [file, readFileSync(join(folder, file), "utf8")]));
  const parquet = join(folder, "runs.parquet");
  return existsSync(parquet) ? { ...tables, "runs.parquet": createHash("sha256").update(readFileSync(parquet)).digest("hex") } : tables;
}

/**
 * Rewrites a complete folder's recorded runs (its runs.parquet) as `rows`, and its manifest's record of the
 * file with them: what re-signing a record was for runs.jsonl, so that a test of what the rows mean is not a
 * test of the digest check.
 */
export function writeRecordedRuns(folder: string, rows: readonly RunRow[]): void {
  const manifestPath = join(folder, "manifest.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as Manifest;
  const layout = recordedLayout(manifest);
  const journal = new LineFile(join(folder, "runs.journal"));
  const writer = new JournalWriter(journal, layout);
  for (const row of rows) writer.add(row);
  writer.flush();
  journal.close();
  const runsParquet = writeRunsParquet(folder, parquetRowGroup(manifest.shard), layout);
  rmSync(join(folder, "runs.journal"));
  writeFileSync(manifestPath, JSON.stringify({ ...manifest, runsParquet }));
}

/** A folder's recorded runs, as every reader of the tool reads them. */
export function recordedRows(folder: string): RunRow[] {
  return [...recordsOf(folder)];
}

/** A data set from rows of features and labels (nothing planted unless given). */
export function dataSetOf(rows: readonly (readonly number[])[], labels: readonly number[], planted: DataSet["planted"] = null): DataSet {
  const d = rows[0]!.length;
  return { n: rows.length, d, x: Float64Array.from(rows.flat()), y: Int8Array.from(labels), planted };
}

/** Learner vectors given directly as the u_i (labels all +1, no bias). */
export function learnerOf(vectors: readonly (readonly number[])[]): LearnerData {
  return toLearnerCoordinates(dataSetOf(vectors, vectors.map(() => 1)), false);
}

/** Every bound, as `bounds: "all"` resolves: what the tests of the bounds' values compute. */
// But the worst order: a search over presentation orders, seconds a run at the runs' n 50 (its own tests ask for it).
export const EVERY_BOUND_KEY: BoundsDeclaration = BOUND_KEYS.filter((key) => key !== "worstOrder");

/** A planted run spec (n = 50, d = 5, γ = 0.1, R = 1, with bias, η = 1, ŵ(0) = 0, cyclic, max-margin on), overridable. */
export function runSpec(overrides: Partial<RunSpec> = {}): RunSpec {
  return {
    run: 0,
    grid: 0,
    point: 0,
    repeat: 0,
    seed: 12345,
    generator: "planted",
    data: null,
    n: 50,
    d: 5,
    margin: 0.1,
    radius: 1,
    offset: 0,
    noise: 0,
    overlap: 0,
    c: null,
    bias: true,
    eta: 1,
    init: "zero",
    order: "cyclic",
    maxEpochs: 100_000,
    optimal: true,
    bounds: EVERY_BOUND_KEY,
    dataVersion: 1,
    ...overrides,
  };
}

/** Overrides that make a run spec a structured family's: no planted input-space parameters. */
export const STRUCTURED = { margin: null, radius: null, offset: null, noise: null, overlap: null } as const;

/** runSpec's grid-point parameters, overridable. */
export function pointParameters(overrides: Partial<PointParameters> = {}): PointParameters {
  return { ...pick(runSpec(), POINT_KEYS), ...overrides };
}

/** Grid point `point` of a sweep with `repeats` runs per point. */
export function sweepPoint(point: number, parameters: PointParameters = pointParameters(), repeats = 100): SweepPoint {
  return { grid: 0, point, firstRun: point * repeats, parameters };
}

/** Sweep settings for batches built in tests. */
export const TEST_SETTINGS: RunSettings = { seed: 7, maxEpochs: 10_000, optimal: true, bounds: EVERY_BOUND_KEY, dataVersion: 1 };

/** The first 16 hex digits of SHA-256 over typed arrays' bytes: the golden digests of data versions. */
export function bytesDigest(...arrays: ArrayBufferView[]): string {
  const hash = createHash("sha256");
  for (const array of arrays) hash.update(new Uint8Array(array.buffer, array.byteOffset, array.byteLength));
  return hash.digest("hex").slice(0, 16);
}

/** A planted grid point (n 60, d 2, margin 0.1, R 1, no offset, with bias), overridable. */
export function plantedPoint(overrides: Partial<PointParameters> = {}): PointParameters {
  return { generator: "planted", data: null, n: 60, d: 2, margin: 0.1, radius: 1, offset: 0, noise: 0, overlap: 0, c: null, bias: true, eta: 1, init: "zero", order: "cyclic", ...overrides };
}

/**
 * A grid whose runs hold every kind of value a run table holds: unconverged runs (noise: pocket errors,
 * null ratios), offsets and both inits, and the three-point family (expected counts, no planted columns:
 * nulls of every type). For the tests of the runs tables' formats.
 */
export const EVERY_VALUE_GRID = [
  { n: [30], d: [3], margin: [0.1], offset: [0, 0.3], noise: [0, 0.1], init: ["zero", "normal:1"] },
  { generator: "three-point", c: [1.5, 2] },
];

/** √(nm/(n+m))·D of the two-sample Kolmogorov–Smirnov test (sorts both samples in place). */
export function ksStatistic(a: number[], b: number[]): number {
  a.sort((x, y) => x - y);
  b.sort((x, y) => x - y);
  let i = 0;
  let j = 0;
  let d = 0;
  while (i < a.length && j < b.length) {
    const v = Math.min(a[i]!, b[j]!);
    while (i < a.length && a[i]! <= v) i++;
    while (j < b.length && b[j]! <= v) j++;
    d = Math.max(d, Math.abs(i / a.length - j / b.length));
  }
  return Math.sqrt((a.length * b.length) / (a.length + b.length)) * d;
}

/**
 * The recorded digests of a data version, one test each: the data sets of `cases` (name, point, seed,
 * digest of x, y and the planted w) and the initial weights normal:1 and uniform:0.5 of 11 entries from seed 9.
 */
export function recordedDigestTests(version: DataVersion, cases: readonly [string, PointParameters, number, string][], initialWeights: string): void {
  for (const [name, p, seed, digest] of cases) {
    it(`${name}, seed ${seed}`, () => {
      const data = generateData(p, createDraws(seed, "data", version));
      expect(bytesDigest(data.x, data.y, ...(data.planted ? [data.planted.w] : []))).toBe(digest);
    });
  }
  it("initial weights normal:1 and uniform:0.5, 11 entries", () => {
    const normal = drawInitialWeights({ kind: "normal", scale: 1 }, 11, () => createDraws(9, "init", version));
    const uniform = drawInitialWeights({ kind: "uniform", scale: 0.5 }, 11, () => createDraws(9, "init", version));
    expect(bytesDigest(normal, uniform)).toBe(initialWeights);
  });
}

/** Each planted row's norm ‖x_i‖ and signed distance y_i(w·x_i + offset) to the hyperplane, appended to `norms` and `distances`. */
export function pushRowGeometry(data: DataSet, offset: number, norms: number[], distances: number[]): void {
  const { n, d, x, y } = data;
  for (let i = 0; i < n; i++) {
    let norm2 = 0;
    let along = 0;
    for (let j = 0; j < d; j++) {
      norm2 += x[i * d + j]! ** 2;
      along += x[i * d + j]! * data.planted!.w[j]!;
    }
    norms.push(Math.sqrt(norm2));
    distances.push(y[i]! * (along + offset));
  }
}
