import { KERNEL_VARIABLE, kernelFromEnvironment } from "../perceptron/perceptron-kernel.js";
import { wasmKernelProblem } from "../perceptron/perceptron-wasm.js";
import { UsageError } from "./cli-error.js";

/** The commands that train perceptrons, and so care which kernel runs. */
const TRAINING_COMMANDS = new Set(["run", "fit", "rerun"]);

/**
 * Refuses a PERCEPTRON_LAB_KERNEL that names no kernel, and says once, on stderr, when the WebAssembly
 * kernel cannot load and the TypeScript reference runs instead (same results, several times slower).
 */
export function checkKernel(command: string): void {
  if (!TRAINING_COMMANDS.has(command)) return;
  let kernel;
  try {
    kernel = kernelFromEnvironment();
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const problem = kernel === "wasm" ? wasmKernelProblem() : null;
  if (problem !== null) process.stderr.write(`Warning: ${problem}; using the TypeScript kernel (same results, slower). ${KERNEL_VARIABLE}=typescript silences this.\n`);
}
