import { BOUND_COLUMNS, RATIO_COLUMNS } from "../run/execute-run.js";
import { RUN_KEYS, type RunRow } from "../run/run-types.js";

/** The columns of runs.csv and the keys of runs.jsonl, in order. README, "Outputs", explains each. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  ...RUN_KEYS,
  "status",
  "error",
  "converged",
  "updates",
  "epochs",
  "expectedUpdates",
  "learnerRadius",
  "separable",
  "plantedMargin",
  "optimalStatus",
  "optimalMargin",
  ...BOUND_COLUMNS,
  "bestBound",
  ...RATIO_COLUMNS,
  "bestRatio",
  "violations",
  "nonFinite",
];
