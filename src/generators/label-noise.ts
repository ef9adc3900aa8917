import type { Uniform } from "../random/seeded-random.js";

/**
 * Label noise (docs/theory.md, "Beyond separable data"), a transform of any data set's labels: one uniform per
 * point, in row order, from the run's data stream after whatever the generator drew, and the label flipped
 * when it is below `noise`. Nothing is drawn at noise 0, so the data are the noiseless ones to the bit; the
 * same uniforms at every rate make the flipped points of a rate a subset of those of any larger rate.
 */
export function flipLabels(y: Int8Array, noise: number, uniform: Uniform): void {
  if (noise === 0) return;
  for (let i = 0; i < y.length; i++) if (uniform() < noise) y[i] = -y[i]! as -1 | 1;
}
