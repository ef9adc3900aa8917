import type { SchemaElement } from "hyparquet";
import type { ColumnSource } from "hyparquet-writer";
import type { RunRow } from "../run/run-types.js";
import { RUN_COLUMNS } from "./run-columns.js";

/**
 * runs.parquet: the columns of runs.csv, typed. Whole numbers (indices, counts, the seed) are INT64,
 * measurements DOUBLE, the flags BOOLEAN, the words UTF-8 strings; every column but the run's place and
 * seed is nullable (null where runs.csv is empty). The types are fixed by the column, never guessed from
 * the data, so that every folder's file has one schema.
 */
const INTEGER_COLUMNS = new Set<string>([
  "run", "grid", "point", "repeat", "seed", "n", "d", "updates", "epochs", "firstEpochMistakes", "lastEpochMistakes",
  "finalErrors", "pocketErrors", "expectedUpdates", "wrongSide", "violations",
]);
const BOOLEAN_COLUMNS = new Set<string>(["bias", "converged", "separable"]);
const STRING_COLUMNS = new Set<string>(["generator", "data", "init", "order", "status", "error", "optimalStatus", "nonFinite"]);
const REQUIRED_COLUMNS = new Set<string>(["run", "grid", "point", "repeat", "seed"]);

export const RUNS_PARQUET_SCHEMA: readonly SchemaElement[] = [
  { name: "schema", num_children: RUN_COLUMNS.length },
  ...RUN_COLUMNS.map((column): SchemaElement => {
    const repetition_type = REQUIRED_COLUMNS.has(column) ? "REQUIRED" : "OPTIONAL";
    if (INTEGER_COLUMNS.has(column)) return { name: column, type: "INT64", repetition_type };
    if (BOOLEAN_COLUMNS.has(column)) return { name: column, type: "BOOLEAN", repetition_type };
    if (STRING_COLUMNS.has(column)) return { name: column, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type };
    return { name: column, type: "DOUBLE", repetition_type };
  }),
];

/** Rows as hyparquet-writer's columns (one array a column, nulls kept), in RUN_COLUMNS order. */
export function runsParquetColumns(rows: readonly RunRow[]): ColumnSource[] {
  return RUN_COLUMNS.map((column) => {
    const integer = INTEGER_COLUMNS.has(column);
    const data = rows.map((row) => {
      const value = row[column] as number | string | boolean | null | undefined;
      if (value === null || value === undefined) return null;
      // A non-finite number is written empty in runs.csv (and null in runs.jsonl): null here too.
      if (typeof value === "number") return Number.isFinite(value) ? (integer ? BigInt(value) : value) : null;
      return value;
    });
    return { name: column, data, nullable: !REQUIRED_COLUMNS.has(column) };
  });
}
