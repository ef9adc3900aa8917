import type { Experiment } from "../experiment/experiment.js";
import { InputError } from "../vocabulary/input-error.js";
import type { RunSpec } from "../run/run-types.js";
import { planSweep } from "./plan-sweep.js";
import { runSpecOf } from "./run-batch.js";

/** The spec of run `index` of the sweep (the `run` column): its grid point's, without a spec per earlier run. */
export function findRun(experiment: Experiment, index: number): RunSpec {
  const plan = planSweep(experiment);
  if (!Number.isInteger(index) || index < 0 || index >= plan.runCount) {
    throw new InputError(`--run ${index}: the sweep has ${plan.runCount} runs, numbered 0 to ${plan.runCount - 1}`);
  }
  const point = Math.floor(index / plan.repeats);
  for (const candidate of plan.points()) if (candidate.point === point) return runSpecOf(plan.settings, candidate, index - candidate.firstRun);
  throw new RangeError(`run ${index} not found in a sweep of ${plan.runCount} runs`);
}
