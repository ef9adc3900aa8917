import { existsSync } from "node:fs";
import type { RunSpec } from "../run/run-types.js";

/**
 * Faults a test can plant in the worker, by run index: throw an error, end the worker thread
 * (process.exit in a worker ends only that thread), allocate without bound until the worker's memory
 * limit kills it, loop for ever, or wait until a file exists (so that a test holds a run in flight for as
 * long as it needs, however slow the machine, and then lets it finish). For tests of the pool's fault
 * handling only; a real run has none.
 */
export interface TestFaults {
  readonly throw?: readonly number[];
  readonly exit?: readonly number[];
  readonly allocate?: readonly number[];
  readonly hang?: readonly number[];
  readonly wait?: { readonly runs: readonly number[]; readonly until: string };
}

export function injectFault(faults: TestFaults | undefined, spec: RunSpec): void {
  if (faults === undefined) return;
  if (faults.throw?.includes(spec.run)) throw new Error(`test fault: run ${spec.run} throws`);
  if (faults.exit?.includes(spec.run)) process.exit(3);
  if (faults.allocate?.includes(spec.run)) {
    // Plain arrays live on V8's heap, which the worker's memory limit caps (typed arrays' buffers do not).
    const hoard: number[][] = [];
    for (;;) hoard.push(new Array<number>(1 << 16).fill(spec.run + 0.5));
  }
  if (faults.hang?.includes(spec.run)) for (;;);
  if (faults.wait?.runs.includes(spec.run)) {
    const pause = new Int32Array(new SharedArrayBuffer(4));
    while (!existsSync(faults.wait.until)) Atomics.wait(pause, 0, 0, 20);
  }
}

/**
 * Faults planted through the command line, for its tests: PERCEPTRON_LAB_TEST_FAULTS holds the JSON of
 * a TestFaults (`{"hang":[50]}`). Unset, as for every user, there are none.
 */
export function testFaultsFromEnvironment(env: NodeJS.ProcessEnv = process.env): TestFaults | undefined {
  const text = env.PERCEPTRON_LAB_TEST_FAULTS;
  return text === undefined || text === "" ? undefined : (JSON.parse(text) as TestFaults);
}
