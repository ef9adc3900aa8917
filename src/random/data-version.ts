/**
 * docs/theory.md, "Data versions": how a data set's random numbers are drawn. A data set is defined by
 * (generator, data version, seed, parameters); a version, once shipped, draws the same bits forever.
 *  1: seedrandom's alea, normals by Marsaglia's polar method (fdlibm's log).
 *  2: xoshiro128**, normals by a 256-layer ziggurat (fdlibm's exp and log in its rare slow paths): about
 *     five times faster, the same distributions.
 *  3: version 2's generators and construction, each stream's state from the whole seed and the stream
 *     through SplitMix64 (splitmix64.ts): in version 2 the first draw of a stream depended on seed >> 32 only.
 */
export const DATA_VERSIONS = [1, 2, 3] as const;
export type DataVersion = (typeof DATA_VERSIONS)[number];
/** The default of an experiment that does not pin one. */
export const LATEST_DATA_VERSION: DataVersion = 3;
/** What a manifest that records none was written with (tool versions before data version 2). */
export const FIRST_DATA_VERSION: DataVersion = 1;
