import { SMALL_RUNS } from "./grids.js";
import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { computeBoundsWithDots } from "../../src/bounds/convergence-bounds.js";
import { freundSchapireAlong } from "../../src/bounds/freund-schapire.js";
import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { generateData } from "../../src/generators/generate-data.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { rowDots } from "../../src/perceptron/row-passes.js";
import { ScratchArray } from "../../src/math/scratch-array.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { runPerceptron, type PerceptronKernel } from "../../src/perceptron/perceptron-kernel.js";
import { ResidentArrays } from "../../src/perceptron/perceptron-wasm.js";
import { digestBinary } from "../../src/aggregate/run-digest.js";
import { encodeRows } from "../../src/export/binary-rows.js";
import { binaryLineViews } from "../../src/export/run-lines.js";
import { DATA_VERSIONS, LATEST_DATA_VERSION, type DataVersion } from "../../src/random/data-version.js";
import { createDraws } from "../../src/random/random-draws.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { residentBytes } from "../../src/run/estimate-run-memory.js";
import { executeRun } from "../../src/run/execute-run.js";
import type { RunRow } from "../../src/run/run-types.js";
import { batchSpecs } from "../../src/sweep/run-batch.js";
import { median, seconds } from "./timing.js";
import { batchesOf, grid } from "./sweep-sections.js";

/** The sections timed in this process: the kernel against C, the data sets, a run's stages, the max-margin QP. */

export function kernel(n: number, d: number, epochs: number, cReference = false) {
  const data = generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0 }, createRandom(7, "data"));
  const random = createRandom(8, "data");
  for (let i = 0; i < n; i++) data.y[i] = random() < 0.5 ? 1 : -1;
  const learner = toLearnerCoordinates(data, true);
  const options = { eta: 1, initialWeights: new Float64Array(learner.dim), order: "cyclic", maxEpochs: epochs } as const;
  // Timed calls worth about 5·10⁸ madds (5 to 21 calls): a small case's call lasts milliseconds, and a
  // median of five of them once caught a slow spell of the shared machine (half the rate of runs before
  // and after).
  const repeats = Math.max(5, Math.min(21, Math.ceil(5e8 / (n * d * epochs))));
  const rate = (kernel: PerceptronKernel) => (n * d * epochs) / seconds(repeats, () => runPerceptron(learner, options, kernel));
  const updates = runPerceptron(learner, options).updates;
  return {
    n,
    d,
    epochs,
    updates,
    maddsPerSecond: rate("wasm"),
    typescriptMaddsPerSecond: rate("typescript"),
    ...(cReference ? { cReference: cKernel(learner.u, n, learner.dim, epochs, updates) } : {}),
  };
}

/** The C loop of scripts/reference-kernel.c at two optimisation levels, on the same u (needs gcc). */
function cKernel(u: Float64Array, n: number, dim: number, epochs: number, updates: number) {
  const folder = mkdtempSync(join(tmpdir(), "perceptron-lab-c-"));
  try {
    const data = join(folder, "u.f64");
    writeFileSync(data, u);
    const rate = (flags: string[]) => {
      const binary = join(folder, "kernel");
      execFileSync("gcc", [...flags, "-o", binary, "scripts/reference-kernel.c"]);
      const result = JSON.parse(execFileSync(binary, [data, String(n), String(dim), String(epochs), "5"], { encoding: "utf8" }));
      // The same loop in the same order makes the same mistakes; -ffast-math may reorder the sums.
      return { maddsPerSecond: (n * (dim - 1) * epochs) / result.seconds, sameUpdates: result.updates === updates };
    };
    return { o3: rate(["-O3"]), o3NativeFastMath: rate(["-O3", "-march=native", "-ffast-math"]) };
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
}

export function generation() {
  const n = 2000;
  const d = 100;
  const planted = (version: DataVersion) => (n * d) / seconds(9, (k) => generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0 }, createDraws(100 + k, "data", version)));
  const normals = (version: DataVersion) => {
    const out = new Float64Array(1 << 20);
    const draws = createDraws(7, "data", version);
    return out.length / seconds(9, () => draws.normal.fill(out));
  };
  const byVersion = Object.fromEntries(DATA_VERSIONS.map((version) => [version, { valuesPerSecond: planted(version), normalsPerSecond: normals(version) }]));
  return { n, d, valuesPerSecond: byVersion[LATEST_DATA_VERSION]!.valuesPerSecond, byVersion };
}

export const STAGES = ["data", "learner", "perceptron", "plantedBounds", "plantedFreundSchapire", "run", "rest", "rowsAsNumbers", "linesAndDigest"] as const;

/** The stages' own arrays for a run's points and learner coordinates, resident in the module as executeRun's are. */
const STAGE_ARRAYS = new ResidentArrays(2);

/** The stages' planted dots, as analyseDataSet's. */
const STAGE_DOTS = new ScratchArray();

/** The stages of `runs` runs of `grid` (after as many of warm-up), in batches of `batch`. */
export async function stages(grid: typeof SMALL_RUNS.grid = SMALL_RUNS.grid, runs = 20_000, batch = 1000) {
  const specs = (await batchesOf(grid, 2 * runs, batch)).flatMap(batchSpecs);
  const pass = (from: number): Record<(typeof STAGES)[number], number> => {
    const total = new Float64Array(STAGES.length);
    let rows: RunRow[] = [];
    let at = process.hrtime.bigint();
    const lap = (stage: number) => {
      const now = process.hrtime.bigint();
      total[stage]! += Number(now - at) / 1e3;
      at = now;
    };
    for (const spec of specs.slice(from, from + runs)) {
      STAGE_ARRAYS.during(residentBytes(spec), ([points, learnerArray]) => {
        at = process.hrtime.bigint();
        const data = generateData(spec, createDraws(spec.seed, "data", spec.dataVersion), undefined, points);
        lap(0);
        const learner = toLearnerCoordinates(data, spec.bias, learnerArray);
        lap(1);
        const zero = new Float64Array(learner.dim);
        at = process.hrtime.bigint();
        const perceptron = runPerceptron(learner, { eta: spec.eta, initialWeights: zero, order: spec.order, maxEpochs: spec.maxEpochs });
        lap(2);
        // As analyseDataSet: the planted separator's dots once, for its margin and its Freund–Schapire search.
        const planted = plantedSeparator(data, spec.bias)!;
        const dots = STAGE_DOTS.view(learner.n);
        rowDots(learner.u, learner.n, learner.dim, planted, dots);
        computeBoundsWithDots(learner, planted, spec.eta, zero, dots);
        lap(3);
        freundSchapireAlong(learner, planted, perceptron.epochs, dots);
        lap(4);
      });
      at = process.hrtime.bigint();
      rows.push(executeRun(spec));
      lap(5);
      if (rows.length === batch) {
        // The worker's last step (its rows as numbers), then the exporter's (lines and digest from them).
        const binary = encodeRows(rows);
        lap(7);
        binaryLineViews(binary);
        digestBinary(binary);
        lap(8);
        rows = [];
      }
    }
    total[6] = total[5]! - total[0]! - total[1]! - total[2]! - total[3]! - total[4]!;
    return Object.fromEntries(STAGES.map((stage, k) => [stage, total[k]! / runs])) as Record<(typeof STAGES)[number], number>;
  };
  pass(runs); // warm-up
  const passes = [pass(0), pass(0), pass(0)];
  const microsecondsPerRun = Object.fromEntries(STAGES.map((stage) => [stage, Math.min(...passes.map((figures) => figures[stage]))]));
  return { runs, microsecondsPerRun };
}

export function maxMargin() {
  return [
    { n: 100, d: 10, repeats: 201 },
    { n: 1000, d: 50, repeats: 21 },
    { n: 10000, d: 100, repeats: 3 },
  ].map(({ n, d, repeats }) => {
    const inputs = Array.from({ length: repeats + 1 }, (_, seed) =>
      toLearnerCoordinates(generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0.3 }, createRandom(seed, "data")), true),
    );
    const train = (k: number) => runPerceptron(inputs[k + 1]!, { eta: 1, initialWeights: new Float64Array(d + 1), order: "cyclic", maxEpochs: 100_000 });
    const hints = inputs.map((_, k) => train(k - 1).weights);
    const qp = seconds(repeats, (k) => maxMarginSeparator(inputs[k + 1]!, { separating: hints[k + 1]! }));
    const perceptron = seconds(repeats, train);
    return { n, d, msPerRun: qp * 1000, perceptronMsPerRun: perceptron * 1000, ratio: qp / perceptron };
  });
}
