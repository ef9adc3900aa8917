import { FACTOR_COLUMNS } from "../bounds/bound-choice.js";
import { BOUND_COLUMNS, RATIO_COLUMNS } from "../bounds/bound-columns.js";
import { type RunRow } from "./run-types.js";
import { RUN_KEYS } from "../vocabulary/point-parameters.js";

/** The a-posteriori columns (bounds: factors, mistakeSet), in order: their summaries are over every ok run. */
export const A_POSTERIORI_COLUMNS = [
  ...FACTOR_COLUMNS,
  "plantedMistakeSetBound",
  "optimalMistakeSetBound",
  "tightestMistakeSetBound",
  "plantedMistakeSetRatio",
  "optimalMistakeSetRatio",
  "tightestMistakeSetRatio",
] as const satisfies readonly (keyof RunRow)[];

/** What a run came to, after its identity (RUN_KEYS): its status, counts, radius, margins. */
export const OUTCOME_COLUMNS = [
  "status",
  "error",
  "converged",
  "updates",
  "epochs",
  "firstEpochMistakes",
  "lastEpochMistakes",
  "finalErrors",
  "pocketErrors",
  "expectedUpdates",
  "learnerRadius",
  "separable",
  "wrongSide",
  "plantedMargin",
  "optimalStatus",
  "optimalMargin",
] as const satisfies readonly (keyof RunRow)[];

/** The bounds of the tightest separators and the noisy-data bounds, after the separator bounds; then their ratios. */
export const OTHER_BOUND_COLUMNS = ["tightestHuBound", "tightestOptimisedBound", "bestBound", "plantedFreundSchapireBound", "tightestFreundSchapireBound"] as const satisfies readonly (keyof RunRow)[];
export const OTHER_RATIO_COLUMNS = ["tightestHuRatio", "tightestOptimisedRatio", "bestRatio", "plantedFreundSchapireRatio", "tightestFreundSchapireRatio"] as const satisfies readonly (keyof RunRow)[];

/** The columns of runs.csv and the keys of runs.jsonl, in order. docs/outputs.md explains each. */
export const RUN_COLUMNS: readonly (keyof RunRow)[] = [
  ...RUN_KEYS,
  ...OUTCOME_COLUMNS,
  ...BOUND_COLUMNS,
  ...OTHER_BOUND_COLUMNS,
  ...RATIO_COLUMNS,
  ...OTHER_RATIO_COLUMNS,
  ...A_POSTERIORI_COLUMNS,
  "violations",
  "nonFinite",
];

/** Where a column lies in a row of the run tables (and of BinaryRows). */
export function columnIndex(column: keyof RunRow): number {
  const index = RUN_COLUMNS.indexOf(column);
  if (index < 0) throw new RangeError(`${column} is not a column of the run tables`);
  return index;
}

/** How a column's value is kept in a binary row (binary-rows.ts): a number, a boolean, or a text. */
export const COLUMN_KIND = { number: 0, boolean: 1, text: 2 } as const;
export type ColumnKind = (typeof COLUMN_KIND)[keyof typeof COLUMN_KIND];

type KeysOf<T> = { [K in keyof RunRow]-?: RunRow[K] extends T ? K : never }[keyof RunRow];
/** The columns that hold a text (or null); the compiler checks that each does. */
const TEXT_COLUMNS = ["generator", "data", "init", "order", "status", "error", "optimalStatus", "nonFinite"] as const satisfies readonly KeysOf<string | null>[];
/** The columns that hold true or false (or null). */
const BOOLEAN_COLUMNS = ["bias", "converged", "separable"] as const satisfies readonly KeysOf<boolean | null>[];

/**
 * Each column's kind, in RUN_COLUMNS order; every column neither a text nor a boolean holds a number (or
 * null): the compiler checks that too (NUMBER_COLUMNS_CHECK).
 */
export const RUN_COLUMN_KINDS: readonly ColumnKind[] = RUN_COLUMNS.map((column) =>
  (TEXT_COLUMNS as readonly string[]).includes(column) ? COLUMN_KIND.text : (BOOLEAN_COLUMNS as readonly string[]).includes(column) ? COLUMN_KIND.boolean : COLUMN_KIND.number,
);

/** Fails to compile where a column left to the numbers holds anything but a number or null. */
type NumberColumnsCheck = Exclude<keyof RunRow, (typeof TEXT_COLUMNS)[number] | (typeof BOOLEAN_COLUMNS)[number]> extends KeysOf<number | null> ? true : never;
export const NUMBER_COLUMNS_CHECK: NumberColumnsCheck = true;
