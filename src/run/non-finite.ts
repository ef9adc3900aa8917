/**
 * Replaces every non-finite number of a flat record (±Infinity from an overflow, NaN from 0/0 after an
 * underflow) with null, and names the fields it replaced: no NaN or Infinity ever reaches a table, and
 * none goes unreported. A record with nothing to replace comes back as it is, not copied.
 */
export function replaceNonFinite<T extends object>(record: T): { readonly record: T; readonly names: string[] } {
  // Nearly every record is all finite: look first, and copy only a record that needs it.
  let clean = true;
  for (const key in record) {
    const value: unknown = record[key];
    if (typeof value === "number" && !Number.isFinite(value)) {
      clean = false;
      break;
    }
  }
  if (clean) return { record, names: [] };
  const names: string[] = [];
  const copy = { ...record } as Record<string, unknown>;
  for (const [key, value] of Object.entries(copy)) {
    if (typeof value === "number" && !Number.isFinite(value)) {
      copy[key] = null;
      names.push(key);
    }
  }
  return { record: copy as T, names };
}
