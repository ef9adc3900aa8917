import { displayPath } from "../files/display-path.js";
import { splitCostOf, type SplitModel } from "../sweep/estimate-run-cost.js";
import type { planSweep } from "../sweep/plan-sweep.js";
import { BlockSplit } from "../sweep/shard.js";
import { InputError } from "../vocabulary/input-error.js";

/** A run no shard holds, in the block merge: the shard the split gives it, whose folder ends before it. */
export function missingRunIn(run: number, runCount: number, shard: number, count: number, dir: string): InputError {
  return new InputError(
    `run ${run} of ${runCount} is in no shard: the split gives it to shard ${shard}/${count} (${displayPath(dir)}), whose runs end before it: that shard folder is incomplete or cut short (resume it with run --shard ${shard}/${count} --resume, or run it again)`,
  );
}

/** A run no shard holds, in the k-way merge: named with the shard the split gives it (one walk of the split's blocks, on this error path only). */
export function missingRun(run: number, plan: ReturnType<typeof planSweep>, byIndex: readonly string[], model: SplitModel): InputError {
  let seen = 0;
  for (const block of new BlockSplit(plan, byIndex.length, splitCostOf(plan.settings.maxEpochs, model)).blockRuns()) {
    seen += block.runs;
    if (run < seen) return missingRunIn(run, plan.runCount, block.shard, byIndex.length, byIndex[block.shard - 1]!);
  }
  return new InputError(`run ${run} of ${plan.runCount} is in no shard: a shard folder is incomplete`);
}
