import type { SchemaElement } from "hyparquet";
import type { ColumnSource } from "hyparquet-writer";
import type { RunRow } from "../run/run-types.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

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

/** The schema of a sweep's runs.parquet: its layout's columns (a plug-in bound's are DOUBLE). */
export function runsParquetSchema(layout: TableLayout = BUILT_IN): readonly SchemaElement[] {
  return [
    { name: "schema", num_children: layout.columns.length },
    ...layout.columns.map((column): SchemaElement => {
      const repetition_type = REQUIRED_COLUMNS.has(column) ? "REQUIRED" : "OPTIONAL";
      if (INTEGER_COLUMNS.has(column)) return { name: column, type: "INT64", repetition_type };
      if (BOOLEAN_COLUMNS.has(column)) return { name: column, type: "BOOLEAN", repetition_type };
      if (STRING_COLUMNS.has(column)) return { name: column, type: "BYTE_ARRAY", converted_type: "UTF8", repetition_type };
      return { name: column, type: "DOUBLE", repetition_type };
    }),
  ];
}

/** Rows a row group of a whole sweep's runs.parquet: a reader's unit of work. */
export const WHOLE_ROW_GROUP = 65_536;
/** What merge may hold of all shards' runs.parquet at a time, decoded (a row group of each), and a decoded row at most. */
const MERGE_DECODED_BYTES = 256 << 20;
const DECODED_ROW_BYTES = 1024;
const MIN_ROW_GROUP = 64;

/**
 * The row group of a shard's runs.parquet. merge reads every shard side by side, a row group of each at a
 * time (decoded: ~0.6 KB a row, see DecodedGroup), so a shard of many writes smaller groups: at 1000
 * shards 262 rows, which keeps merge under MERGE_DECODED_BYTES; beyond 4096 shards MIN_ROW_GROUP rows (10⁴
 * shards: ~0.4 GB, measured).
 */
export function shardRowGroup(shardCount: number): number {
  return Math.max(MIN_ROW_GROUP, Math.min(WHOLE_ROW_GROUP, Math.floor(MERGE_DECODED_BYTES / (shardCount * DECODED_ROW_BYTES))));
}

/**
 * A row group being gathered: each row's values go straight into one array a column, as hyparquet-writer
 * takes them (INT64 as bigints, nulls kept), so that no row object outlives its add.
 */
export class RunsParquetColumns {
  readonly #columns: readonly string[];
  readonly #data: unknown[][];
  readonly #integer: readonly boolean[];

  constructor(layout: TableLayout = BUILT_IN) {
    this.#columns = layout.columns;
    this.#data = this.#columns.map(() => []);
    this.#integer = this.#columns.map((column) => INTEGER_COLUMNS.has(column));
  }

  get length(): number {
    return this.#data[0]!.length;
  }

  add(row: RunRow): void {
    const columns = this.#columns;
    for (let c = 0; c < columns.length; c++) {
      const value = (row as unknown as Record<string, unknown>)[columns[c]!] as number | string | boolean | null | undefined;
      let cell: unknown = value ?? null;
      // A non-finite number is written empty in runs.csv (and null in runs.jsonl): null here too.
      if (typeof value === "number") cell = Number.isFinite(value) ? (this.#integer[c] ? BigInt(value) : value) : null;
      this.#data[c]!.push(cell);
    }
  }

  /** The gathered rows as hyparquet-writer's columns, in the layout's order; the builder starts empty again. */
  take(): ColumnSource[] {
    return this.#columns.map((column, c) => {
      const data = this.#data[c]!;
      this.#data[c] = [];
      return { name: column, data, nullable: !REQUIRED_COLUMNS.has(column) };
    });
  }
}
