import type { BoundContext, BoundFacts, BoundPlugin } from "../vocabulary/plugin-definitions.js";
import type { SeparatorContext } from "./separator/separator-bound.js";

/**
 * The plug-in bounds this thread knows (src/plugins: an experiment's `plugins`, loaded with it, or a
 * folder's recorded facts), by name, with where each came from (its file's SHA-256). Their columns follow
 * from their names (export/table-layout.ts); a sweep computes those its settings list (extraBounds).
 */
const BOUNDS = new Map<string, { readonly facts: BoundFacts; readonly plugin: BoundPlugin | null; readonly origin: string }>();

/**
 * Adds a plug-in bound: with its code (`plugin`), or from a folder's recorded facts (null), which an entry
 * with code of the same origin replaces. Throws for a name another file already took.
 */
export function registerBound(facts: BoundFacts, plugin: BoundPlugin | null, origin: string): void {
  const known = BOUNDS.get(facts.name);
  if (known !== undefined && known.origin !== origin) throw new RangeError(`a bound named ${facts.name} was loaded from another plug-in file, or from this one before it changed (a process loads a plug-in once: start a new one to load a changed file)`);
  if (known === undefined || (plugin !== null && known.plugin === null)) BOUNDS.set(facts.name, { facts, plugin, origin });
}

/**
 * The plug-in bounds `names` for one separator (null where one does not apply): each its module's
 * evaluate, given the separator's quantities as intervals. Throws, naming the bound, on what is no bound
 * (a negative number, NaN, not a number): the run becomes an error row saying so.
 */
export function pluginBoundValues(names: readonly string[], context: SeparatorContext): (number | null)[] {
  const { data, m, a, s } = context;
  const given: BoundContext = {
    n: data.n,
    dim: data.dim,
    rows: data.u,
    separator: context.separator,
    eta: context.eta,
    initialWeights: context.initialWeights,
    zeroInit: context.zeroInit,
    radiusSquared: { lo: m.lo, hi: m.hi },
    margin: { lo: a.lo, hi: a.hi },
    normSquared: { lo: s.lo, hi: s.hi },
    initNormSquared: () => {
      const norm = context.initNorm2();
      return { lo: norm.lo, hi: norm.hi };
    },
  };
  return names.map((name) => {
    const plugin = BOUNDS.get(name)?.plugin ?? null;
    if (plugin === null) throw new Error(`the ${name} bound's plug-in is not loaded here (a bug)`);
    const value: unknown = plugin.evaluate(given);
    if (value === null || value === undefined) return null;
    if (typeof value !== "number" || !(value >= 0)) throw new Error(`the ${name} bound (a plug-in) returned ${typeof value === "number" ? String(value) : typeof value}: a bound is a number ≥ 0, or null where it does not apply`);
    return value;
  });
}
