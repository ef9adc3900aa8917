import { drawsOf } from "../random/random-draws.js";
import { beyondSeparable } from "../vocabulary/point-parameters.js";
import type { GeneratorEntry } from "./generator-entry.js";
import { flipLabels } from "./label-noise.js";

/**
 * The csv generator: a user's own data sets, one file each (fit's rules, read and hashed when the experiment
 * is loaded, shared by the worker threads). The file fixes n and d; the learner's keys sweep over it, and
 * `noise` flips its labels (label-noise.ts: each run its own flips, drawn from its data stream). There is no
 * planted separator and no exact count; without noise a run's seed draws its ŵ(0) and its permutations only.
 */
export const csvGenerator = {
  name: "csv",
  description: "your own data sets: CSV files as fit reads them (a header, a label column of -1/+1 or 0/1, numeric features), named by data; noise flips their labels",
  required: ["data"],
  keyNotes: { data: "Data files for the csv generator: CSVs as fit reads them (a header, a label column of -1/+1 or 0/1, numeric features), paths relative to the experiment file" },
  keys: ["data", "noise"],
  sized: false,
  seeded: false,
  defaultBias: true,
  *shapes(grid, files) {
    for (const data of grid.data!) yield { data, n: files[data]!.n, d: files[data]!.d };
  },
  exclusionReason: () => null,
  // The file's name as written: the data are the file's, the seed draws ŵ(0), the permutations and, with
  // noise, the flips. Noise does not enter (the planted family's rule): the flipped points of a rate are a
  // subset of those of any larger rate.
  dataParameters: (p) => ({ generator: p.generator, data: p.data }),
  generate(p, source, dataSets) {
    const data = dataSets?.get(p.data!);
    if (data === undefined) throw new Error(`the data of ${p.data} were not handed to this run (a bug)`);
    const noise = p.noise ?? 0;
    if (noise === 0) return data;
    // The file's data are shared by every run of the thread: the run's labels are a copy.
    const y = Int8Array.from(data.y);
    flipLabels(y, noise, drawsOf(source).uniform);
    return { ...data, y };
  },
  expectedUpdates: () => null,
  tight: false,
  resident: false,
  // No margin is known before the run (and the data may not be separable): 100 epochs keeps batches short; with
  // noise the run likely goes to maxEpochs and is replayed for its pocket error.
  epochsGuess: (p, maxEpochs) => (beyondSeparable(p) ? 2 * maxEpochs : Math.min(maxEpochs, 100)),
  plotFamily: "data",
} satisfies GeneratorEntry;
