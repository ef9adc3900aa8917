import type { GeneratorEntry } from "./generator-entry.js";

/**
 * The csv generator: a user's own data sets, one file each (fit's rules, read and hashed when the experiment
 * is loaded, shared by the worker threads). The file fixes n and d; the learner's keys sweep over it. There
 * is no planted separator and no exact count; a run's seed draws its ŵ(0) and its permutations only.
 */
export const csvGenerator = {
  name: "csv",
  description: "your own data sets: CSV files as fit reads them (a header, a label column of -1/+1 or 0/1, numeric features), named by data",
  required: ["data"],
  keys: ["data"],
  sized: false,
  seeded: false,
  defaultBias: true,
  *shapes(grid, files) {
    for (const data of grid.data!) yield { data, n: files[data]!.n, d: files[data]!.d };
  },
  exclusionReason: () => null,
  // The file's name as written: the data are the file's, the seed draws ŵ(0) and the permutations.
  dataParameters: (p) => ({ generator: p.generator, data: p.data }),
  generate(p, _source, dataSets) {
    const data = dataSets?.get(p.data!);
    if (data === undefined) throw new Error(`the data of ${p.data} were not handed to this run (a bug)`);
    return data;
  },
  expectedUpdates: () => null,
  tight: false,
  resident: false,
  // No margin is known before the run (and the data may not be separable): 100 epochs keeps batches short.
  epochsGuess: (_p, maxEpochs) => Math.min(maxEpochs, 100),
  plotFamily: "data",
} satisfies GeneratorEntry;
