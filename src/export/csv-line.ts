import { stringify } from "csv-stringify/sync";

export type CsvValue = string | number | boolean | null;

/**
 * One RFC 4180 line (with its newline). Numbers keep JavaScript's shortest round-trip form, so a value
 * read back is the same double; booleans are `true`/`false`; null is an empty field. Non-finite numbers
 * never reach a table: they are written as empty fields, like null.
 */
export function csvLine(values: readonly CsvValue[]): string {
  return csvLines([values]);
}

/**
 * Several lines at once, each as csvLine writes it.
 *
 * Text fields are quoted and escaped by csv-stringify, one field at a time (its output for a field does
 * not depend on the other fields of the record), and remembered, since a table repeats a few texts
 * (generator, init, order, status) on every line. Numbers, booleans and nulls never need quoting: they
 * are written as csv-stringify's cast would write them, and the fields joined with commas. Whole records
 * through the stringifier cost about 30 µs per line of runs.csv, a fifth of a small run's time.
 * test/export/exporters.test.ts checks, on random records, that the lines equal the stringifier's own.
 */
export function csvLines(records: readonly (readonly CsvValue[])[]): string {
  let lines = "";
  for (const record of records) {
    for (let k = 0; k < record.length; k++) lines += k === 0 ? csvField(record[k]!) : `,${csvField(record[k]!)}`;
    lines += "\n";
  }
  return lines;
}

/**
 * The options of a whole-record stringify that csvLines reproduces (the tests compare the two). Text that a
 * spreadsheet would take for a formula (opening with =, +, -, @, a tab or a carriage return: a data file named
 * `=HYPERLINK(…).csv`) is written with a leading `'`, as OWASP advises for CSV (csv-stringify's
 * escape_formulas); numbers, negative ones included, are never touched. runs.jsonl keeps every text as it is.
 */
export const CSV_OPTIONS = {
  escape_formulas: true,
  cast: {
    boolean: (value: boolean) => (value ? "true" : "false"),
    number: (value: number) => (Number.isFinite(value) ? String(value) : ""),
  },
};

/** One field of a line, as csvLines writes it (without its separator). */
export function csvField(value: CsvValue): string {
  switch (typeof value) {
    case "number":
      return CSV_OPTIONS.cast.number(value);
    case "boolean":
      return CSV_OPTIONS.cast.boolean(value);
    case "string":
      return textField(value);
    default:
      return "";
  }
}

/** Texts seen, with their fields. Bounded: error messages and replay notes may each be new. */
const TEXT_FIELDS = new Map<string, string>();
const MAX_TEXT_FIELDS = 256;

function textField(text: string): string {
  let field = TEXT_FIELDS.get(text);
  if (field === undefined) {
    field = stringify([[text]], { escape_formulas: true }).slice(0, -1);
    if (TEXT_FIELDS.size < MAX_TEXT_FIELDS) TEXT_FIELDS.set(text, field);
  }
  return field;
}
