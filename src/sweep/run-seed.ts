import { hash } from "node:crypto";

/**
 * A run's seed: the first 48 bits of SHA-256 over the experiment seed, the parameters that define the
 * run's data, and the repeat index, as canonical JSON: `[seed,[[key,value],…],repeat]` with the keys
 * sorted. It depends on what the run is, never on where it stands in the sweep, so adding a value to a
 * grid leaves every existing run's data unchanged.
 *
 * Only the data-defining parameters enter (generator, n, d, margin, radius, offset): runs that differ in
 * η, ŵ(0), order or bias see the same data set, and the same ŵ(0) draw and permutations when those are
 * random. Comparisons across η and init are therefore paired, free of data-to-data noise. So are those
 * across the planted noise and overlap, which do not enter either: runs that differ only in them draw
 * the same uniforms, so a point flipped at one noise rate is flipped at every larger one, and at overlap
 * 0 the data are the separable data set of the same seed, bit for bit.
 */
export function runSeed(experimentSeed: number, dataParameters: Readonly<Record<string, unknown>>, repeat: number): number {
  return seedOf(seedPrefix(experimentSeed, dataParameters), repeat);
}

/** The canonical JSON before the repeat index, the same for every repeat of a grid point: `[seed,[…],`. */
export function seedPrefix(experimentSeed: number, dataParameters: Readonly<Record<string, unknown>>): string {
  const keys = Object.keys(dataParameters).sort();
  const head = JSON.stringify([experimentSeed, keys.map((key) => [key, dataParameters[key]])]);
  return `${head.slice(0, -1)},`;
}

/**
 * The seed of one repeat, from its point's prefix (crypto's one-shot hash: no Hash object per run): the
 * digest's first 6 bytes, big-endian, read as its first 12 hex digits (< 2^48, exact in a double). The
 * same number as reading them from a Buffer, without the Buffer: ~1.0 µs a call against ~1.7.
 */
export function seedOf(prefix: string, repeat: number): number {
  return parseInt(hash("sha256", `${prefix}${JSON.stringify(repeat)}]`, "hex").slice(0, 12), 16);
}
