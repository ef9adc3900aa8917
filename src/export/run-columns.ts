import { BOUND_NAMES } from "../bounds/convergence-bounds.js";
import { boundColumn, ratioColumn } from "../run/execute-run.js";
import type { RunRow } from "../run/run-types.js";

/** The columns of runs.csv and the keys of runs.jsonl, in order. README, "Outputs", explains each. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  "run",
  "grid",
  "point",
  "repeat",
  "seed",
  "generator",
  "n",
  "d",
  "margin",
  "radius",
  "offset",
  "bias",
  "eta",
  "init",
  "order",
  "status",
  "error",
  "converged",
  "updates",
  "epochs",
  "learnerRadius",
  "plantedMargin",
  ...BOUND_NAMES.map(boundColumn),
  ...BOUND_NAMES.map(ratioColumn),
  "violations",
];
