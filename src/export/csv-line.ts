import { stringify } from "csv-stringify/sync";

export type CsvValue = string | number | boolean | null;

/**
 * One RFC 4180 line (with its newline). Numbers keep JavaScript's shortest round-trip form, so a value
 * read back is the same double; booleans are `true`/`false`; null is an empty field. Non-finite numbers
 * never reach a table: they are written as empty fields, like null.
 */
export function csvLine(values: readonly CsvValue[]): string {
  return stringify([values as CsvValue[]], {
    cast: {
      boolean: (value) => (value ? "true" : "false"),
      number: (value) => (Number.isFinite(value) ? String(value) : ""),
    },
  });
}
