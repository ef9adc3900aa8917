import type { Grid } from "../vocabulary/grid.js";
import type { PointParameters } from "../vocabulary/point-parameters.js";
import type { FamilyKey } from "./generator-entry.js";
import { generatorEntry } from "./generator-registry.js";

/**
 * A grid's combinations, as each generator shapes them (its sizes or its files, its own keys, then the learner's),
 * and the rule a combination breaks: what the planner walks and the loader checks.
 */

/**
 * How many combinations the experiment's grids hold at most, valid or not, from the lengths of their lists
 * alone (nothing walked): each generator's shapes are at most its lists of n, d and data files crossed.
 * What a command checks before it plans a sweep point by point (planSweep walks every combination).
 */
export function gridCombinations(experiment: { readonly grids: readonly Grid[] }): number {
  let total = 0;
  for (const grid of experiment.grids) {
    for (const generator of grid.generator) {
      const entry = generatorEntry(generator);
      let count = 1;
      for (const key of ["n", "d", "data"] as const) count *= (grid[key] as readonly unknown[] | null | undefined)?.length ?? 1;
      for (const key of ["margin", "radius", "offset", "noise", "overlap", "c"] as const) {
        if (entry.keys.includes(key)) count *= (grid[key] as readonly unknown[] | null | undefined)?.length ?? 1;
      }
      total += count * (grid.bias?.length ?? 1) * grid.eta.length * grid.init.length * grid.order.length;
    }
  }
  return total;
}

/** Every combination of one grid, valid or not: each generator's shapes (its sizes or its files), then its own keys, then the learner's. */
export function* gridPoints(grid: Grid, dataFiles: Readonly<Record<string, { readonly n: number; readonly d: number }>>): Generator<PointParameters> {
  for (const generator of grid.generator) {
    const entry = generatorEntry(generator);
    const values = (key: FamilyKey): readonly (number | null)[] => {
      if (!entry.keys.includes(key)) return [null];
      const given = grid[key] as readonly number[] | null;
      const fallback = entry.keyDefaults?.[key];
      return given ?? (fallback === undefined ? [null] : [fallback]);
    };
    const [margins, radii, offsets, noises, overlaps, cs] = (["margin", "radius", "offset", "noise", "overlap", "c"] as const).map(values);
    const biases = grid.bias ?? [entry.defaultBias];
    for (const { data, n, d } of entry.shapes(grid, dataFiles)) {
      for (const margin of margins!) {
        for (const radius of radii!) {
          for (const offset of offsets!) {
            for (const noise of noises!) {
              for (const overlap of overlaps!) {
                for (const c of cs!) {
                  for (const bias of biases) {
                    for (const eta of grid.eta) {
                      for (const init of grid.init) {
                        for (const order of grid.order) {
                          yield { generator, data, n, d, margin, radius, offset, noise, overlap, c, bias, eta, init, order };
                        }
                      }
                    }
                  }
                }
              }
            }
          }
        }
      }
    }
  }
}

/** The rule of docs/theory.md ("Generators with exact control") a combination breaks, or null: its generator's. */
export function exclusionReason(p: PointParameters): string | null {
  return generatorEntry(p.generator).exclusionReason(p);
}
