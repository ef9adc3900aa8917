import { existsSync } from "node:fs";
import { join } from "node:path";
import { PACKAGE_ROOT } from "../runner/tool-info.js";
import { UsageError } from "./cli-error.js";

export const DEFAULT_EXPERIMENT = "experiments/quick.json";

/** The default experiment: experiments/quick.json here, or the one shipped with the package. */
export function defaultExperimentPath(): string {
  return existsSync(DEFAULT_EXPERIMENT) ? DEFAULT_EXPERIMENT : join(PACKAGE_ROOT, DEFAULT_EXPERIMENT);
}

/** A whole number flag within [min, max], or a UsageError naming the flag. */
export function wholeNumberFlag(flag: string, value: unknown, min: number, max: number): number {
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isInteger(number) || number < min || number > max) {
    throw new UsageError(`--${flag} ${String(value)}: must be a whole number from ${min} to ${max}`);
  }
  return number;
}

export function positiveNumberFlag(flag: string, value: unknown): number {
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isFinite(number) || number <= 0) {
    throw new UsageError(`--${flag} ${String(value)}: must be a finite number greater than 0`);
  }
  return number;
}
