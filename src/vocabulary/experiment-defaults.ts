/** The value each experiment key takes where a file does not give it (docs/experiments.md). */
export const EXPERIMENT_DEFAULTS = {
  seed: 1,
  repeats: 1,
  maxEpochs: 100_000,
  optimal: true,
  radius: 1,
  offset: 0,
  noise: 0,
  overlap: 0,
  eta: 1,
  init: "zero",
  order: "cyclic",
} as const;
