import { hash } from "node:crypto";

/** The last field of every runs.jsonl record: `,"check":"<16 hex digits>"}`. */
const CHECK_FIELD = ',"check":"';
const CHECK_DIGITS = 16;

/**
 * A record's check: the first 64 bits of SHA-256 over the record's text before its check field. It makes
 * a record changed after it was written (by hand, by a script, by a disk) evident to every reader
 * (resume, merge, compare, report), which refuses it by file and line. It is no signature: whoever
 * means to forge a record can recompute it.
 */
export function recordCheck(body: string | Uint8Array): string {
  // A string is hashed as its UTF-8 bytes: the same check for the text and for its encoding.
  return hash("sha256", body, "hex").slice(0, CHECK_DIGITS);
}

/** A record's line (without its newline) from its text up to the last field: the body and its check. */
export function checkedRecord(body: string): string {
  return `${body}${recordEnd(recordCheck(body))}`;
}

/** What follows a record's body: its check field and the record's closing brace. */
export function recordEnd(check: string): string {
  return `${CHECK_FIELD}${check}"}`;
}

/** Why a line is not a record as written (no check, or a check that does not match), or null when it is. */
export function recordProblem(line: string): string | null {
  const at = line.length - CHECK_FIELD.length - CHECK_DIGITS - 2;
  if (at <= 0 || !line.startsWith(CHECK_FIELD, at) || !line.endsWith('"}')) return "has no record check";
  if (recordCheck(line.slice(0, at)) !== line.slice(at + CHECK_FIELD.length, -2)) return "does not match its record check: it was changed after it was written";
  return null;
}
