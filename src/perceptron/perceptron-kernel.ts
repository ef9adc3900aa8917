import type { LearnerData } from "./learner-coordinates.js";
import { trainPerceptron, type PerceptronOptions, type PerceptronResult } from "./perceptron.js";
import { trainPerceptronWasm } from "./perceptron-wasm.js";

/**
 * Which code runs the perceptron's epochs and the planted generator's row pass: "wasm" (the WebAssembly
 * SIMD module, the default) or "typescript" (the reference). Both give bit-identical results; the reference is there to check the
 * kernel against and to run where WebAssembly cannot (data beyond 4 GiB, a missing build).
 */
export type PerceptronKernel = "wasm" | "typescript";
export const PERCEPTRON_KERNELS: readonly PerceptronKernel[] = ["wasm", "typescript"];

/** The environment variable that picks the kernel (worker threads inherit it). */
export const KERNEL_VARIABLE = "PERCEPTRON_LAB_KERNEL";

/** The kernel PERCEPTRON_LAB_KERNEL asks for; "wasm" when unset. Throws a RangeError on other values. */
export function kernelFromEnvironment(environment: NodeJS.ProcessEnv = process.env): PerceptronKernel {
  const value = environment[KERNEL_VARIABLE];
  if (value === undefined || value === "") return "wasm";
  if ((PERCEPTRON_KERNELS as readonly string[]).includes(value)) return value as PerceptronKernel;
  throw new RangeError(`${KERNEL_VARIABLE}=${value} is not a kernel: use ${PERCEPTRON_KERNELS.join(" or ")}`);
}

let chosen: PerceptronKernel | undefined;

/** The kernel of this process, read from the environment once: also whether the planted generator's row pass runs in WebAssembly. */
export function chosenKernel(): PerceptronKernel {
  return (chosen ??= kernelFromEnvironment());
}

/** The perceptron with the chosen kernel, falling back to the reference where WebAssembly cannot run. */
export function runPerceptron(data: LearnerData, options: PerceptronOptions, kernel?: PerceptronKernel): PerceptronResult {
  kernel ??= chosenKernel();
  if (kernel === "wasm") {
    const result = trainPerceptronWasm(data, options);
    if (result !== null) return result;
  }
  return trainPerceptron(data, options);
}
