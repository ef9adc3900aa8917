import type { RunRow } from "../run/run-types.js";
import { COLUMN_KIND, RUN_COLUMN_KINDS, RUN_COLUMNS } from "../run/run-columns.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";

/**
 * A batch's rows as numbers: what a worker sends instead of their text (docs/architecture.md, "No text on
 * the hot path"). `values` holds a layout's width of numbers a row (table-layout.ts: ROW_WIDTH, RUN_COLUMNS,
 * without plug-in bounds), in its columns' order: a number column its value,
 * a boolean column 1 or 0, a text column the index of its text in `texts` (each text of the batch once),
 * and any column NaN for null. A non-finite number is NaN too: the tables write it as they write null
 * (run-lines.ts), so the lines formatted from these rows are those of the rows themselves.
 */
export interface BinaryRows {
  readonly count: number;
  readonly values: Float64Array;
  readonly texts: readonly string[];
}

export const ROW_WIDTH = RUN_COLUMNS.length;

/**
 * Rows as BinaryRows. `values` may be a view of this thread's buffer, valid until its next call (a
 * worker's ring copies it; see `owned`). Throws on a value its column's kind cannot hold (a bug: RunRow's
 * types are the kinds, and the compiler checks RUN_COLUMN_KINDS against them).
 */
export function encodeRows(rows: readonly RunRow[], { owned = false, layout = BUILT_IN }: { readonly owned?: boolean; readonly layout?: TableLayout } = {}): BinaryRows {
  const width = layout.width;
  const length = rows.length * width;
  if (SCRATCH.length < length) SCRATCH = new Float64Array(Math.max(length, 2 * SCRATCH.length));
  const values = owned ? new Float64Array(length) : SCRATCH.subarray(0, length);
  const texts: string[] = [];
  const textIndex = new Map<string, number>();
  const text = (value: string): number => {
    let index = textIndex.get(value);
    if (index === undefined) {
      index = texts.push(value) - 1;
      textIndex.set(value, index);
    }
    return index;
  };
  for (let r = 0; r < rows.length; r++) ENCODE_ROW(rows[r]!, values, r * width, text, wrongKind);
  if (width > ROW_WIDTH) {
    // A plug-in bound's columns (numbers), after the tool's own: read by name, the few sweeps that have them.
    const extra = layout.columns.slice(ROW_WIDTH);
    for (let r = 0; r < rows.length; r++) {
      const row = rows[r] as unknown as Record<string, unknown>;
      for (let k = 0; k < extra.length; k++) {
        const value = row[extra[k]!];
        if (typeof value === "number") values[r * width + ROW_WIDTH + k] = value;
        else if (value === null || value === undefined) values[r * width + ROW_WIDTH + k] = NaN;
        else throw new TypeError(`column ${extra[k]} cannot hold ${typeof value} ${JSON.stringify(value)}`);
      }
    }
  }
  return { count: rows.length, values, texts };
}

type RowEncoder = (row: RunRow, values: Float64Array, at: number, text: (value: string) => number, wrong: (column: number, value: unknown) => TypeError) => void;

/**
 * One row into `values` from `at`, column by column: a function written out once from RUN_COLUMNS and
 * their kinds, each column read by its name. Read through a loop over the names (`row[name]`), every
 * read is a lookup by a key only known at run time: a small run's encoding took 2.9–3.7 µs that way against
 * 0.9–1.7 (a batch of 256 small rows, warm, on this 2-core machine). A column missing from a row (one read
 * from a folder older than the column) is null, as the tables write it.
 */
const ENCODE_ROW = new Function(
  "row",
  "values",
  "at",
  "text",
  "wrong",
  RUN_COLUMNS.map((column, k) => {
    const read = `const v${k} = row[${JSON.stringify(column)}];`;
    const store = `values[at + ${k}]`;
    const test = { [COLUMN_KIND.number]: `typeof v${k} === "number"`, [COLUMN_KIND.boolean]: `typeof v${k} === "boolean"`, [COLUMN_KIND.text]: `typeof v${k} === "string"` }[RUN_COLUMN_KINDS[k]!];
    const value = { [COLUMN_KIND.number]: `v${k}`, [COLUMN_KIND.boolean]: `(v${k} ? 1 : 0)`, [COLUMN_KIND.text]: `text(v${k})` }[RUN_COLUMN_KINDS[k]!];
    return `${read} if (${test}) ${store} = ${value}; else if (v${k} === null || v${k} === undefined) ${store} = NaN; else throw wrong(${k}, v${k});`;
  }).join("\n"),
) as RowEncoder;

/**
 * Row `index` of binary rows as a RunRow: what encodeRows was given (with the same layout), for a run's row
 * (whose non-finite numbers are already null: see non-finite.ts).
 */
export function decodeRow({ values, texts }: Pick<BinaryRows, "values" | "texts">, index: number, layout: TableLayout = BUILT_IN): RunRow {
  const row: Record<string, unknown> = {};
  const at = index * layout.width;
  for (let k = 0; k < layout.width; k++) {
    const value = values[at + k]!;
    const kind = layout.kinds[k];
    row[layout.columns[k]!] = value !== value ? null : kind === COLUMN_KIND.number ? value : kind === COLUMN_KIND.boolean ? value === 1 : texts[value]!;
  }
  return row as unknown as RunRow;
}

/** This thread's buffer of encodeRows. */
let SCRATCH = new Float64Array(1 << 14);

function wrongKind(column: number, value: unknown): TypeError {
  return new TypeError(`column ${RUN_COLUMNS[column]} cannot hold ${typeof value} ${JSON.stringify(value)}`);
}
