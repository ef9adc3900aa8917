
/** How the bench times a piece of work in process: repeated past a warm-up, the median of the repeats. */

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
}

/**
 * Warm-up before timing: calls for at least this long, so that the JIT has optimised the code as it has
 * in a sweep's thousands of runs. One call was not enough: the planted generator's first ten data sets
 * of n 2 000, d 100 ran at 1.2·10⁷ values/s, later ones at ~2·10⁷.
 */
const WARM_UP_SECONDS = 0.5;

/** Median seconds of `repeats` calls, after warm-up calls (task(-1)) for WARM_UP_SECONDS. */
export function seconds(repeats: number, task: (k: number) => unknown): number {
  const warm = process.hrtime.bigint() + BigInt(WARM_UP_SECONDS * 1e9);
  do task(-1);
  while (process.hrtime.bigint() < warm);
  return median(
    Array.from({ length: repeats }, (_, k) => {
      const start = process.hrtime.bigint();
      task(k);
      return Number(process.hrtime.bigint() - start) / 1e9;
    }),
  );
}
