import type { DataVersion } from "./data-version.js";
import { NormalSampler } from "./normal-sampler.js";
import { createRandom, type RandomStream, type Uniform } from "./seeded-random.js";
import { splitMixStateOf } from "./splitmix64.js";
import { Xoshiro128, xoshiroStateOf } from "./xoshiro128.js";
import { ZigguratNormal } from "./ziggurat-normal.js";

/** Standard normal deviates, one at a time or straight into an array. */
export interface NormalSource {
  next(): number;
  fill(out: Float64Array, start?: number, length?: number): void;
}

/** One random stream of a run: uniforms and normals drawn from the same generator, interleaved as asked. */
export interface Draws {
  readonly uniform: Uniform;
  readonly normal: NormalSource;
  /** The data version that defines these draws (a generator may also place its points differently by version). */
  readonly version: DataVersion;
  /**
   * The xoshiro128** generator under both (versions 2 and 3), for a generator that draws in bulk elsewhere
   * (the planted data set in WebAssembly: generators/planted-draw.ts) and leaves its state where these
   * draws go on; absent under version 1 and for draws made otherwise.
   */
  readonly generator?: Xoshiro128;
}

/** A run's named stream (data, init, order) as its data version draws it. */
export function createDraws(seed: number, stream: RandomStream, version: DataVersion): Draws {
  if (version === 1) return drawsOf(createRandom(seed, stream));
  const rng = new Xoshiro128(version === 2 ? xoshiroStateOf(seed, stream) : splitMixStateOf(seed, stream));
  return { uniform: () => rng.nextDouble(), normal: new ZigguratNormal(rng), version, generator: rng };
}

/** Data version 1's draws over a uniform stream (polar normals from the same uniforms); Draws as they are. */
export function drawsOf(source: Uniform | Draws): Draws {
  return typeof source === "function" ? { uniform: source, normal: new NormalSampler(source), version: 1, generator: undefined } : source;
}
