import { createHash } from "node:crypto";

/**
 * A run's seed: the first 48 bits of SHA-256 over the experiment seed, the parameters that define the
 * run's data, and the repeat index, as canonical JSON. It depends on what the run is, never on where it
 * stands in the sweep, so adding a value to a grid leaves every existing run's data unchanged.
 *
 * Only the data-defining parameters enter (generator, n, d, margin, radius, offset): runs that differ in
 * η, ŵ(0), order or bias see the same data set, and the same ŵ(0) draw and permutations when those are
 * random. Comparisons across η and init are therefore paired, free of data-to-data noise.
 */
export function runSeed(experimentSeed: number, dataParameters: Readonly<Record<string, unknown>>, repeat: number): number {
  const keys = Object.keys(dataParameters).sort();
  const canonical = JSON.stringify([experimentSeed, keys.map((key) => [key, dataParameters[key]]), repeat]);
  const digest = createHash("sha256").update(canonical).digest();
  return digest.readUIntBE(0, 6);
}
