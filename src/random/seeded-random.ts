import alea from "seedrandom/lib/alea.js";

/** A uniform generator on [0, 1). */
export type Uniform = () => number;

/**
 * The independent random streams of one run. Each is seeded from the run's seed and its own name, so
 * drawing more initial weights never shifts the data, and a shuffled order never shifts the weights.
 */
export type RandomStream = "data" | "init" | "order";

/**
 * A seeded uniform stream. seedrandom's `alea` is used rather than its default ARC4: it is about five
 * times faster and has a 2^116 period, plenty for one run's draws.
 */
export function createRandom(seed: number, stream: RandomStream): Uniform {
  return alea(`${seed}/${stream}`);
}
