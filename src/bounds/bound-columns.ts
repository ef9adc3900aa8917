import { SEPARATORS, type SeparatorName } from "../vocabulary/point-parameters.js";
import { capitalised } from "./bound-choice.js";
import { SEPARATOR_BOUNDS, type SeparatorBoundName } from "./separator/separator-bounds.js";

/**
 * The separator bounds' names (separator/separator-bounds.ts), then `best`: the stems of their columns. In a
 * module of names only, so that what formats or reads the tables (an exporter thread, the report) does
 * not load the run pipeline to know them.
 */
export const BOUND_NAMES = [...SEPARATOR_BOUNDS.map((bound) => bound.name), "best"] as readonly (SeparatorBoundName | "best")[];
export type BoundName = SeparatorBoundName | "best";

export function boundColumn(separator: SeparatorName, name: BoundName): BoundColumn {
  return `${separator}${capitalised(name)}Bound`;
}

export function ratioColumn(separator: SeparatorName, name: BoundName): RatioColumn {
  return `${separator}${capitalised(name)}Ratio`;
}

/** Every bound column, then every ratio column, separator by separator. */
export const BOUND_COLUMNS: readonly BoundColumn[] = SEPARATORS.flatMap((s) => BOUND_NAMES.map((name) => boundColumn(s, name)));
export const RATIO_COLUMNS: readonly RatioColumn[] = SEPARATORS.flatMap((s) => BOUND_NAMES.map((name) => ratioColumn(s, name)));

/** A separator's bound column, plantedNovikoffBound …, and its ratio column. */
export type BoundColumn = `${SeparatorName}${Capitalize<BoundName>}Bound`;
export type RatioColumn = `${SeparatorName}${Capitalize<BoundName>}Ratio`;
