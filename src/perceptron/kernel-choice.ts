/**
 * Which code runs the perceptron's epochs and the row passes over a data set (the planted generator's,
 * the learner's coordinates, the bounds' dots): "wasm" (the WebAssembly SIMD module, the default) or
 * "typescript" (the reference). Both give bit-identical results; the reference is there to check the
 * module against and to run where WebAssembly cannot (data beyond 4 GiB, a missing build).
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

/** The kernel of this process, read from the environment once. */
export function chosenKernel(): PerceptronKernel {
  return (chosen ??= kernelFromEnvironment());
}
