import { probit, sampleStandardDeviation } from "simple-statistics";
import { fisherDropP } from "./fisher-exact.js";

/**
 * What a check could have confirmed at its sample size (issue: a gate that cannot fail at the settings it
 * ships is no gate). Two figures, worked out before any data are seen, from the sizes and the spread:
 *  - `smallestP`: the smallest p its test can reach, every run moving the same way (a paired test of n
 *    pairs: 2^−n one-sided; two samples of n₁ and n₂: 1/C(n₁+n₂, n₁)). Above the check's level, no
 *    change however large can fail it: `canFail` false.
 *  - `change`: the smallest shift of the metric (or, for convergence, of the converged share) its test
 *    would confirm with 80 % power at that level, by the normal approximation of the t-test that the rank
 *    tests nearly match (their efficiency is ~0.95 for normal data): (z₁₋ₐ + z₀.₈)·s/√n paired, with s the
 *    spread of the differences, and (z₁₋ₐ + z₀.₈)·s·√(1/n₁ + 1/n₂) for two samples, with s the pooled spread;
 *    for convergence, exactly, the smallest drop of the converged share (from all converged) its test
 *    confirms: k of n pairs lost (2^−k below the level), or Fisher's test on the two counts; null where it
 *    cannot fail or there is no spread to scale by.
 * The level is the check's share of alpha before Holm's steps (alpha over the checks of its level, as the
 * first step of Holm tests): the strictest threshold it may meet, so the figures are conservative.
 */
export interface DetectableChange {
  readonly smallestP: number;
  readonly canFail: boolean;
  readonly change: number | null;
  /** The level the figures assume and the power of `change`. */
  readonly level: number;
  readonly power: number;
}

/** The sizes a check's test ran on, kept for detectableChange. */
export type TestSizes =
  | { readonly kind: "paired"; readonly differences: readonly number[] }
  | { readonly kind: "two-sample"; readonly before: readonly number[]; readonly after: readonly number[] }
  | { readonly kind: "paired-counts"; readonly pairs: number }
  | { readonly kind: "two-sample-counts"; readonly before: number; readonly after: number };

const POWER = 0.8;

export function detectableChange(sizes: TestSizes, level: number, twoSided: boolean): DetectableChange {
  const side = twoSided ? level / 2 : level;
  const z = probit(1 - side) + probit(POWER);
  const smallestP = smallestPOf(sizes) * (twoSided ? 2 : 1);
  const canFail = smallestP < level;
  let change: number | null = null;
  if (canFail && sizes.kind === "paired" && sizes.differences.length >= 2) {
    const s = sampleStandardDeviation(sizes.differences as number[]);
    change = s > 0 ? (z * s) / Math.sqrt(sizes.differences.length) : null;
  } else if (canFail && sizes.kind === "two-sample" && sizes.before.length >= 2 && sizes.after.length >= 2) {
    const [n1, n2] = [sizes.before.length, sizes.after.length];
    const pooled = Math.sqrt(((n1 - 1) * sampleStandardDeviation(sizes.before as number[]) ** 2 + (n2 - 1) * sampleStandardDeviation(sizes.after as number[]) ** 2) / (n1 + n2 - 2));
    change = pooled > 0 ? z * pooled * Math.sqrt(1 / n1 + 1 / n2) : null;
  } else if (canFail && sizes.kind === "paired-counts") {
    // Exact: k runs lost and none gained give the sign test p = 2^−k; the fewest lost that reach the level.
    change = Math.ceil(Math.log2(1 / side) - 1e-9) / sizes.pairs;
  } else if (canFail && sizes.kind === "two-sample-counts") {
    // Exact: from all converged before, the fewest not converged after that Fisher's test confirms (its p
    // falls as more are lost: a binary search, each step one Fisher tail).
    const confirms = (lost: number) => fisherDropP(sizes.before, sizes.before, sizes.after - lost, sizes.after) * (twoSided ? 2 : 1) < level;
    let [low, high] = [1, sizes.after];
    while (low < high) {
      const middle = Math.floor((low + high) / 2);
      if (confirms(middle)) high = middle;
      else low = middle + 1;
    }
    change = low / sizes.after;
  }
  return { smallestP, canFail, change, level, power: POWER };
}

/** The one-sided smallest p of the test on these sizes: every pair or run on the same side. */
function smallestPOf(sizes: TestSizes): number {
  switch (sizes.kind) {
    case "paired":
      return 2 ** -sizes.differences.length;
    case "paired-counts":
      return 2 ** -sizes.pairs;
    case "two-sample":
      return 1 / binomial(sizes.before.length + sizes.after.length, sizes.before.length);
    case "two-sample-counts":
      return 1 / binomial(sizes.before + sizes.after, sizes.before);
  }
}

/** C(n, k), as a float (it only ever divides 1). */
function binomial(n: number, k: number): number {
  let value = 1;
  for (let i = 1; i <= Math.min(k, n - k); i++) value = (value * (n - Math.min(k, n - k) + i)) / i;
  return value;
}
