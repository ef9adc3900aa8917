/**
 * The vocabulary floor (docs/architecture.md, "Floors"): the shapes every stage shares, imported downward by all
 * and importing nothing of the project. A grid point's parameters, the keys that identify a point and a run, the
 * presentation orders and the separators every bound is computed from.
 */

/** A generator's name: a built-in one (generators/generator-registry.ts lists them) or a plug-in's (docs/plugins.md). */
export type GeneratorName = string;

/** The presentation orders of the perceptron: every epoch in index order, or a seeded permutation each epoch. */
/**
 * The adversarial orders (docs/theory.md, "Adversarial orders"): each step updates one mistaken point, chosen
 * by a rule that attacks a step of the proof (or uniformly: the textbook PLA). Lower bounds on the worst order.
 */
export const ADVERSARIAL_ORDERS = ["most-violated", "least-progress", "most-growth", "random-mistake"] as const;
export type AdversarialOrder = (typeof ADVERSARIAL_ORDERS)[number];
export const ORDERS = ["cyclic", "shuffle", ...ADVERSARIAL_ORDERS] as const;
export type PresentationOrder = (typeof ORDERS)[number];

/** The parameters of one grid point; null where the generator does not use the key. */
export interface PointParameters {
  readonly generator: GeneratorName;
  /** The csv generator's data file, as the experiment names it; null for the generated families. */
  readonly data: string | null;
  readonly n: number;
  readonly d: number;
  readonly margin: number | null;
  readonly radius: number | null;
  readonly offset: number | null;
  /** Planted label noise: the probability that each label is flipped (docs/theory.md, "Beyond separable data"). */
  readonly noise: number | null;
  /** Planted overlap δ: how deep points may lie on the wrong side of the planted hyperplane. */
  readonly overlap: number | null;
  /** The three-point family's c. */
  readonly c: number | null;
  readonly bias: boolean;
  readonly eta: number;
  readonly init: string;
  readonly order: PresentationOrder;
}

/**
 * Whether a grid point draws from the planted law made non-separable (label noise or overlap above 0,
 * docs/theory.md "Beyond separable data"); rows written before 0.5 have neither.
 */
export function beyondSeparable(p: Pick<PointParameters, "noise" | "overlap">): boolean {
  return (p.noise ?? 0) > 0 || (p.overlap ?? 0) > 0;
}

/** The keys of PointParameters, in column order: what identifies a grid point across folders. */
export const POINT_KEYS = ["generator", "data", "n", "d", "margin", "radius", "offset", "noise", "overlap", "c", "bias", "eta", "init", "order"] as const satisfies readonly (keyof PointParameters)[];

/** The keys that identify a run (and open every row): its place in the sweep, its seed, its parameters. */
export const RUN_KEYS = ["run", "grid", "point", "repeat", "seed", ...POINT_KEYS] as const;

/** The two separators every bound is computed from (docs/theory.md, "Which ŵ*"). */
export const SEPARATORS = ["planted", "optimal"] as const;
export type SeparatorName = (typeof SEPARATORS)[number];

/** The listed fields of a record, in the list's order (which fixes the key order of JSON output). */
export function pick<T, K extends keyof T>(record: T, keys: readonly K[]): Pick<T, K> {
  const picked = {} as Pick<T, K>;
  for (const key of keys) picked[key] = record[key];
  return picked;
}
