import type { z } from "zod";

/** `grid.margin[2]`, `grid[1].n`, `repeats`. */
export function formatPath(path: readonly PropertyKey[]): string {
  let text = "";
  for (const key of path) {
    if (typeof key === "number") text += `[${key}]`;
    else text += text === "" ? String(key) : `.${String(key)}`;
  }
  return text;
}

/** A value as a user would have typed it in JSON. */
export function formatValue(value: unknown): string {
  if (value === undefined) return "nothing";
  if (typeof value === "number" && !Number.isFinite(value)) return String(value);
  const text = JSON.stringify(value);
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}

/**
 * One zod issue as one line: `<path>: <value> <rule>`. For a "value or list of values" union the branch
 * that matches the input's shape (list or scalar) is the one reported.
 */
export function formatIssue(issue: z.core.$ZodIssue, root: unknown, prefix: readonly PropertyKey[] = []): string {
  const path = [...prefix, ...issue.path];
  const input = valueAt(root, path);
  if (issue.code === "invalid_union") {
    const branch = issue.errors[Array.isArray(input) ? issue.errors.length - 1 : 0];
    const first = branch?.[0];
    if (first) return formatIssue(first, root, path);
  }
  const where = formatPath(path);
  const at = where === "" ? "" : `${where}: `;
  if (issue.code === "unrecognized_keys") {
    const keys = issue.keys.map((key) => JSON.stringify(key)).join(", ");
    return `${at}unknown key${issue.keys.length > 1 ? "s" : ""} ${keys}`;
  }
  if (input === undefined) return `${where} is required`;
  if (issue.code === "invalid_type" && issue.expected === "object") return `${at}${formatValue(input)} is not an object`;
  if (issue.code === "invalid_type" && issue.expected === "array") return `${at}${formatValue(input)} is not a list`;
  return `${at}${formatValue(input)} ${issue.message}`;
}

function valueAt(root: unknown, path: readonly PropertyKey[]): unknown {
  let value: unknown = root;
  for (const key of path) {
    if (value === null || typeof value !== "object") return undefined;
    value = (value as Record<PropertyKey, unknown>)[key];
  }
  return value;
}
