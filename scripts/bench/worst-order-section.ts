import { maxMarginSeparator } from "../../src/bounds/max-margin-separator.js";
import { DEFAULT_WORST_ORDER_BUDGET, worstOrder } from "../../src/bounds/worst-order.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { plantedSeparator, toLearnerCoordinates } from "../../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../../src/perceptron/perceptron.js";
import { createDraws } from "../../src/random/random-draws.js";

/** The n the ladder tries, in turn, at each margin and d. */
const LADDER = [6, 8, 10, 12, 14, 16, 20, 24, 30, 40];
/** Runs per (n, d, margin): the search must complete in ≥ 90 % of them. */
const RUNS = 10;

/** One planted data set's W* search (ŵ(0) = 0, bias, η = 1, the default budget): its status, updates and thread CPU. */
function searchOne(n: number, d: number, margin: number, seed: number) {
  const data = generatePlanted({ n, d, margin, radius: 1, offset: 0 }, createDraws(seed, "data", 3));
  const learner = toLearnerCoordinates(data, true);
  const w0 = new Float64Array(learner.dim);
  const started = process.cpuUsage();
  const found = worstOrder(learner, { eta: 1, initialWeights: w0, separators: [plantedSeparator(data, true), maxMarginSeparator(learner).separator ?? null] })!;
  const used = process.cpuUsage(started);
  const cyclic = trainPerceptron(learner, { eta: 1, initialWeights: w0, order: "cyclic", maxEpochs: 1_000_000 }).updates;
  return { exact: found.status === "exact", lower: found.lower, upper: found.upper, cyclic, nodes: found.nodes, cpuSeconds: (used.user + used.system) / 1e6 };
}

/**
 * worstOrder (--only worstOrder; not in the default set: minutes): at margins 0.05, 0.1, 0.2 and d 5, 10, the
 * largest n of LADDER at which the exact search completes in ≥ 90 % of RUNS planted runs within the default
 * budget, with the CPU a run took and the median W* beside the cyclic order's updates. The ladder stops at the
 * first n below 90 %.
 */
export function worstOrderSection() {
  const rows = [];
  for (const d of [5, 10]) {
    for (const margin of [0.05, 0.1, 0.2]) {
      let largest: { n: number; exactShare: number; cpuSecondsPerRun: number; medianLower: number; medianCyclic: number } | null = null;
      let failed: { n: number; exactShare: number } | null = null;
      for (const n of LADDER) {
        const runs = Array.from({ length: RUNS }, (_, k) => searchOne(n, d, margin, 1000 + k));
        const exactShare = runs.filter((run) => run.exact).length / RUNS;
        if (exactShare < 0.9) {
          failed = { n, exactShare };
          break;
        }
        const median = (values: number[]) => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
        largest = {
          n,
          exactShare,
          cpuSecondsPerRun: runs.reduce((sum, run) => sum + run.cpuSeconds, 0) / RUNS,
          medianLower: median(runs.map((run) => run.lower)),
          medianCyclic: median(runs.map((run) => run.cyclic)),
        };
      }
      rows.push({ d, margin, budget: DEFAULT_WORST_ORDER_BUDGET, largest, failed });
    }
  }
  return rows;
}
