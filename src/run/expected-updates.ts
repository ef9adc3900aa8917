import { generatorEntry } from "../generators/generator-registry.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";

/**
 * The exact number of updates docs/theory.md predicts from ŵ(0) = 0, where floating point reproduces exact
 * arithmetic (the structured families: each generator's entry says when); null everywhere else.
 */
export function expectedUpdates(p: PointParameters): number | null {
  if (p.init !== "zero") return null;
  return generatorEntry(p.generator).expectedUpdates(p);
}
