/**
 * The worker of the run pool. It imports only the pure per-run pipeline and the shared task types:
 * a task is a batch of run specs, the answer their rows, in the same order.
 */
import { executeRunSafely } from "../run/execute-run.js";
import type { RunRow, RunSpec } from "../run/run-types.js";

export default function runBatch(specs: readonly RunSpec[]): RunRow[] {
  return specs.map(executeRunSafely);
}
