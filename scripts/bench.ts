/**
 * npm run bench [-- --json]: timings of the costly steps, measured here and never asserted in a test.
 * Prints a table; with --json, one JSON object as the last line of output.
 *
 * maxMargin: the max-margin QP (quadprog, with polishing and the duality certificate) per run, against
 * n and d, on planted data (margin 0.1, radius 1, offset 0.3, with bias), seeded as in a run with the
 * perceptron's converged weights, beside the perceptron's own time on the same data (cyclic, ŵ(0) = 0)
 * and the ratio of the two.
 */
import { cpus } from "node:os";
import { maxMarginSeparator } from "../src/bounds/max-margin-separator.js";
import { generatePlanted } from "../src/generators/planted.js";
import { toLearnerCoordinates } from "../src/perceptron/learner-coordinates.js";
import { trainPerceptron } from "../src/perceptron/perceptron.js";
import { createRandom } from "../src/random/seeded-random.js";

/** Median milliseconds of `repeats` calls of `task` (each on its own input), after one warm-up call. */
function medianMs<T>(inputs: readonly T[], task: (input: T) => unknown): number {
  task(inputs[0]!);
  const times = inputs.map((input) => {
    const start = process.hrtime.bigint();
    task(input);
    return Number(process.hrtime.bigint() - start) / 1e6;
  });
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

const SIZES = [
  { n: 100, d: 10, repeats: 21 },
  { n: 1000, d: 50, repeats: 9 },
  { n: 10000, d: 100, repeats: 3 },
] as const;

const maxMargin = SIZES.map(({ n, d, repeats }) => {
  const inputs = Array.from({ length: repeats }, (_, seed) =>
    toLearnerCoordinates(generatePlanted({ n, d, margin: 0.1, radius: 1, offset: 0.3 }, createRandom(seed, "data")), true),
  );
  const train = (learner: (typeof inputs)[number]) =>
    trainPerceptron(learner, { eta: 1, initialWeights: new Float64Array(learner.dim), order: "cyclic", maxEpochs: 100_000 });
  // As in a run: the perceptron's converged weights seed the QP's working set.
  const hints = new Map(inputs.map((learner) => [learner, train(learner).weights]));
  const qpMs = medianMs(inputs, (learner) => maxMarginSeparator(learner, { separating: hints.get(learner)! }));
  const perceptronMs = medianMs(inputs, train);
  return { n, d, msPerRun: qpMs, perceptronMsPerRun: perceptronMs, ratio: qpMs / perceptronMs };
});

const machine = `${cpus().length} × ${cpus()[0]?.model ?? "unknown CPU"}, Node ${process.version}`;
console.log(`perceptron-lab bench on ${machine}\n`);
console.log("max-margin QP per run (planted data, margin 0.1, offset 0.3, with bias)");
console.log("n        d     QP ms/run   perceptron ms/run   QP / perceptron");
for (const row of maxMargin) {
  console.log(
    `${String(row.n).padEnd(8)} ${String(row.d).padEnd(5)} ${row.msPerRun.toFixed(3).padStart(9)}   ${row.perceptronMsPerRun.toFixed(3).padStart(17)}   ${row.ratio.toFixed(1).padStart(15)}`,
  );
}
if (process.argv.includes("--json")) console.log(JSON.stringify({ machine, maxMargin }));
