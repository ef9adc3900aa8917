import type { LearnerData } from "./learner-coordinates.js";
import { trainPerceptron, type PerceptronOptions, type PerceptronResult } from "./perceptron.js";
import { trainPerceptronWasm } from "./perceptron-wasm.js";
import { chosenKernel, type PerceptronKernel } from "./kernel-choice.js";
import { isAdversarial, trainAdversarial } from "./adversarial-orders.js";

export { chosenKernel, KERNEL_VARIABLE, kernelFromEnvironment, PERCEPTRON_KERNELS, type PerceptronKernel } from "./kernel-choice.js";

/**
 * The perceptron with the chosen kernel, falling back to the reference where WebAssembly cannot run; an
 * adversarial order (adversarial-orders.ts) has one kernel, in TypeScript.
 */
export function runPerceptron(data: LearnerData, options: PerceptronOptions, kernel?: PerceptronKernel): PerceptronResult {
  if (isAdversarial(options.order)) return trainAdversarial(data, options);
  kernel ??= chosenKernel();
  if (kernel === "wasm") {
    const result = trainPerceptronWasm(data, options);
    if (result !== null) return result;
  }
  return trainPerceptron(data, options);
}
