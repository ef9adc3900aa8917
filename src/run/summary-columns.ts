import { BOUND_COLUMNS, RATIO_COLUMNS } from "../bounds/bound-columns.js";
import { A_POSTERIORI_COLUMNS } from "./run-columns.js";

/**
 * The columns of a grid point's summary (summary.json, summary.csv), by the runs they are taken over: what the
 * summariser fills and the exporters write, named once.
 */

/** The numbers a summary needs of each converged run (a run cut off at maxEpochs has no count): their statistics. */
export const STATISTIC_COLUMNS = ["updates", ...RATIO_COLUMNS, "tightestHuRatio", "tightestOptimisedRatio", "bestRatio"] as const;
/**
 * Medians over every run that did not fail, converged or not: the data's radius and margins and the bounds
 * are the run's data set's, known whether the perceptron converged on it or not (a point none of whose runs
 * converged still shows the bound that explains its epoch cap).
 */
export const MEDIAN_COLUMNS = ["learnerRadius", "plantedMargin", "optimalMargin", ...BOUND_COLUMNS, "tightestHuBound", "tightestOptimisedBound", "bestBound"] as const;
/**
 * Statistics over every run that did not fail, converged or not (docs/theory.md, "Beyond separable data": the
 * Freund–Schapire bound holds at any epoch count). `mistakes` is the updates column of all those runs.
 */
export const EVERY_RUN_COLUMNS = [
  "mistakes",
  "firstEpochMistakes",
  "lastEpochMistakes",
  "finalErrors",
  "pocketErrors",
  "wrongSide",
  "plantedFreundSchapireBound",
  "tightestFreundSchapireBound",
  "plantedFreundSchapireRatio",
  "tightestFreundSchapireRatio",
  // The a-posteriori columns hold at every point of a run, converged or not (docs/theory.md).
  ...A_POSTERIORI_COLUMNS,
] as const;
export const SUMMARY_COLUMNS = [...STATISTIC_COLUMNS, ...MEDIAN_COLUMNS, ...EVERY_RUN_COLUMNS] as const;
/** Where the columns over every ok run (MEDIAN_COLUMNS, then EVERY_RUN_COLUMNS) start in SUMMARY_COLUMNS. */
export const EVERY_RUN_FROM = STATISTIC_COLUMNS.length;
