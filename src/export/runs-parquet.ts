import type { SchemaElement } from "hyparquet";
import type { ColumnSource } from "hyparquet-writer";
import type { RunRow } from "../run/run-types.js";
import type { BinaryRows } from "./binary-rows.js";
import { COLUMN_KIND, type ColumnKind } from "../run/run-columns.js";
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
 * A row group being gathered, a column at a time: a number column's values in a Float64Array (NaN for null),
 * the flags and words in arrays (null kept), so that no row object outlives its add and no number is boxed.
 * take hands them to hyparquet-writer as it takes them: a number column without a null as a typed array
 * (BigInt64Array for INT64, Float64Array for DOUBLE), one with nulls as an array of bigints or numbers and
 * nulls. The file's bytes are those of the values, whichever form carried them (tested).
 */
export class RunsParquetColumns {
  readonly #columns: readonly string[];
  readonly #kinds: readonly ColumnKind[];
  readonly #integer: readonly boolean[];
  /** A number column's values, NaN for null (null for the other columns). */
  #numbers: (Float64Array | null)[];
  /** A flag or word column's cells (null for the number columns). */
  #others: (unknown[] | null)[];
  #length = 0;

  constructor(layout: TableLayout = BUILT_IN) {
    this.#columns = layout.columns;
    this.#kinds = layout.kinds;
    this.#integer = this.#columns.map((column) => INTEGER_COLUMNS.has(column));
    this.#numbers = this.#kinds.map((kind) => (kind === COLUMN_KIND.number ? new Float64Array(1024) : null));
    this.#others = this.#kinds.map((kind) => (kind === COLUMN_KIND.number ? null : []));
  }

  get length(): number {
    return this.#length;
  }

  /** Room for `more` rows in every number column. */
  #reserve(more: number): void {
    const need = this.#length + more;
    this.#numbers = this.#numbers.map((numbers) => {
      if (numbers === null || numbers.length >= need) return numbers;
      const grown = new Float64Array(Math.max(need, 2 * numbers.length));
      grown.set(numbers.subarray(0, this.#length));
      return grown;
    });
  }

  add(row: RunRow): void {
    this.#reserve(1);
    const columns = this.#columns;
    for (let c = 0; c < columns.length; c++) {
      const value = (row as unknown as Record<string, unknown>)[columns[c]!] as number | string | boolean | null | undefined;
      const numbers = this.#numbers[c] ?? null;
      // A non-finite number is written empty in runs.csv (and null in runs.jsonl): null here too.
      if (numbers !== null) numbers[this.#length] = typeof value === "number" && Number.isFinite(value) ? value : NaN;
      else this.#others[c]!.push(value ?? null);
    }
    this.#length++;
  }

  /**
   * Rows `from` to `to` of binary rows (binary-rows.ts, in this layout), column by column: the same cells as
   * add gives their rows (a NaN is null), without a row object between them.
   */
  addBinary({ values, texts }: Pick<BinaryRows, "values" | "texts">, from: number, to: number): void {
    this.#reserve(to - from);
    const width = this.#kinds.length;
    for (let c = 0; c < width; c++) {
      const numbers = this.#numbers[c] ?? null;
      if (numbers !== null) {
        for (let r = from, at = from * width + c, k = this.#length; r < to; r++, at += width, k++) {
          const value = values[at]!;
          numbers[k] = value - value === 0 ? value : NaN;
        }
        continue;
      }
      const others = this.#others[c]!;
      const boolean = this.#kinds[c] === COLUMN_KIND.boolean;
      for (let r = from, at = from * width + c; r < to; r++, at += width) {
        const value = values[at]!;
        others.push(value !== value ? null : boolean ? value === 1 : texts[value]!);
      }
    }
    this.#length += to - from;
  }

  /** The gathered rows as hyparquet-writer's columns, in the layout's order; the builder starts empty again. */
  take(): ColumnSource[] {
    const length = this.#length;
    const columns = this.#columns.map((column, c): ColumnSource => {
      const nullable = !REQUIRED_COLUMNS.has(column);
      const numbers = this.#numbers[c] ?? null;
      if (numbers === null) {
        const data = this.#others[c]!;
        this.#others[c] = [];
        return { name: column, data, nullable };
      }
      const integer = this.#integer[c];
      let nulls = 0;
      for (let k = 0; k < length; k++) if (numbers[k] !== numbers[k]) nulls++;
      if (nulls === 0 && !integer) return { name: column, data: numbers.slice(0, length), nullable };
      if (nulls === 0) {
        const data = new BigInt64Array(length);
        for (let k = 0; k < length; k++) data[k] = BigInt(numbers[k]!);
        return { name: column, data, nullable };
      }
      // Every row null (a bound the sweep does not compute): one array of nulls.
      if (nulls === length) return { name: column, data: new Array<null>(length).fill(null), nullable };
      const data = new Array<bigint | number | null>(length);
      for (let k = 0; k < length; k++) {
        const value = numbers[k]!;
        data[k] = value !== value ? null : integer ? BigInt(value) : value;
      }
      return { name: column, data, nullable };
    });
    this.#length = 0;
    return columns;
  }
}
