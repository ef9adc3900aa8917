import { mean, max, medianSorted, min, quantileSorted, sampleStandardDeviation } from "simple-statistics";
import type { Median, Statistics } from "./summary-types.js";

export function statistics(values: readonly number[]): Statistics {
  if (values.length === 0) return { mean: null, sd: null, min: null, median: null, p90: null, max: null };
  const sorted = [...values].sort((a, b) => a - b);
  return {
    mean: mean(values as number[]),
    sd: values.length > 1 ? sampleStandardDeviation(values as number[]) : null,
    min: min(values as number[]),
    median: medianSorted(sorted),
    p90: quantileSorted(sorted, 0.9),
    max: max(values as number[]),
  };
}

export function medianOf(values: readonly number[]): Median {
  return { median: values.length === 0 ? null : medianSorted([...values].sort((a, b) => a - b)) };
}
