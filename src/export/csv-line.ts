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

/** Several lines at once, each as csvLine writes it: one call of the stringifier for a whole batch. */
export function csvLines(records: readonly (readonly CsvValue[])[]): string {
  return stringify(records as CsvValue[][], CSV_OPTIONS);
}

const CSV_OPTIONS = {
  cast: {
    boolean: (value: boolean) => (value ? "true" : "false"),
    number: (value: number) => (Number.isFinite(value) ? String(value) : ""),
  },
};
