import { FACTOR_COLUMNS } from "../bounds/bound-choice.js";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../run/execute-run.js";
import { RUN_KEYS, type RunRow } from "../run/run-types.js";

/** The a-posteriori columns (bounds: factors, mistakeSet), in order: their summaries are over every ok run. */
export const A_POSTERIORI_COLUMNS = [
  ...FACTOR_COLUMNS,
  "plantedMistakeSetBound",
  "optimalMistakeSetBound",
  "tightestMistakeSetBound",
  "plantedMistakeSetRatio",
  "optimalMistakeSetRatio",
  "tightestMistakeSetRatio",
] as const satisfies readonly (keyof RunRow)[];

/** The columns of runs.csv and the keys of runs.jsonl, in order. docs/outputs.md explains each. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  ...RUN_KEYS,
  "status",
  "error",
  "converged",
  "updates",
  "epochs",
  "firstEpochMistakes",
  "lastEpochMistakes",
  "finalErrors",
  "pocketErrors",
  "expectedUpdates",
  "learnerRadius",
  "separable",
  "wrongSide",
  "plantedMargin",
  "optimalStatus",
  "optimalMargin",
  ...BOUND_COLUMNS,
  "tightestHuBound",
  "tightestOptimisedBound",
  "bestBound",
  "plantedFreundSchapireBound",
  "tightestFreundSchapireBound",
  ...RATIO_COLUMNS,
  "tightestHuRatio",
  "tightestOptimisedRatio",
  "bestRatio",
  "plantedFreundSchapireRatio",
  "tightestFreundSchapireRatio",
  ...A_POSTERIORI_COLUMNS,
  "violations",
  "nonFinite",
];
