import { InputError } from "../vocabulary/input-error.js";

/**
 * Command-line overrides in Hydra's habit (`--set grid.margin=0.01,0.02 --set repeats=50`), applied to
 * an experiment's parsed source before it is validated, so an override obeys every rule of the file.
 *
 * - The key is a path of names and list indices: `repeats`, `grid.margin`, `grid[1].n` (a list of grids
 *   is indexed; `grid.n` on a list is refused rather than guessed).
 * - The value is JSON when it opens with `[`, `{` or `"` (`grid.init=["zero","normal:1"]`); otherwise a
 *   comma-separated list (a sweep, as Hydra's `a,b`) of items, each a number, true, false, null (removes
 *   the key: its default applies) or else a string. One item is a scalar; several are a list.
 * - A later override of the same key wins, as in Hydra.
 */
export function applyOverrides(source: unknown, overrides: readonly string[]): unknown {
  let result = structuredClone(source);
  for (const override of overrides) result = applyOne(result, override);
  return result;
}

function applyOne(source: unknown, override: string): unknown {
  const equals = override.indexOf("=");
  if (equals <= 0) throw new InputError(`--set ${override}: expected key=value, as in grid.margin=0.01,0.02 or repeats=50`);
  const key = override.slice(0, equals).trim();
  const path = parseKey(key, override);
  const value = parseValue(override.slice(equals + 1), override);
  if (source === null || typeof source !== "object" || Array.isArray(source)) {
    throw new InputError(`--set ${override}: the experiment is not an object`);
  }
  let parent: unknown = source;
  for (let i = 0; i < path.length - 1; i++) {
    const step = path[i]!;
    let next = childOf(parent, step, path.slice(0, i + 1), override);
    if (next === undefined) {
      if (typeof step === "number") throw new InputError(`--set ${override}: ${formatKey(path.slice(0, i + 1))} does not exist`);
      next = {};
      (parent as Record<string, unknown>)[step] = next;
    } else if (next === null || typeof next !== "object") {
      throw new InputError(`--set ${override}: ${formatKey(path.slice(0, i + 1))} is ${JSON.stringify(next)}, not an object or a list`);
    }
    parent = next;
  }
  const last = path.at(-1)!;
  childOf(parent, last, path, override); // refuses a name on a list and an index on an object
  if (typeof last === "number") {
    const list = parent as unknown[];
    if (last >= list.length) throw new InputError(`--set ${override}: ${formatKey(path)} does not exist (${formatKey(path.slice(0, -1))} has ${list.length} items)`);
    if (value === undefined) throw new InputError(`--set ${override}: null cannot remove a list item`);
    list[last] = value;
  } else if (value === undefined) {
    delete (parent as Record<string, unknown>)[last];
  } else {
    (parent as Record<string, unknown>)[last] = value;
  }
  return source;
}

function childOf(parent: unknown, step: string | number, at: (string | number)[], override: string): unknown {
  if (typeof step === "number") {
    if (!Array.isArray(parent)) throw new InputError(`--set ${override}: ${formatKey(at.slice(0, -1))} is not a list`);
    return parent[step];
  }
  if (Array.isArray(parent)) {
    const where = formatKey(at.slice(0, -1));
    throw new InputError(`--set ${override}: ${where} is a list of ${parent.length}: name one, as ${where}[0].${step}`);
  }
  return Object.hasOwn(parent as object, step) ? (parent as Record<string, unknown>)[step] : undefined;
}

const KEY = /^[A-Za-z_$][A-Za-z0-9_$]*(?:\[\d+\])*(?:\.[A-Za-z_$][A-Za-z0-9_$]*(?:\[\d+\])*)*$/;

/** `grid[1].margin` → ["grid", 1, "margin"]. */
function parseKey(key: string, override: string): (string | number)[] {
  if (!KEY.test(key)) throw new InputError(`--set ${override}: "${key}" is not a key: use names joined by dots, with [i] for a list item (grid[1].margin)`);
  const path: (string | number)[] = [];
  for (const part of key.split(".")) {
    const [name, ...indices] = part.split("[");
    path.push(name!);
    for (const index of indices) path.push(Number(index.slice(0, -1)));
  }
  if (path.includes("__proto__") || path.includes("constructor") || path.includes("prototype")) {
    throw new InputError(`--set ${override}: "${key}" is not a key of an experiment`);
  }
  return path;
}

function formatKey(path: (string | number)[]): string {
  return path.map((step, i) => (typeof step === "number" ? `[${step}]` : i === 0 ? step : `.${step}`)).join("");
}

/** The value of an override; undefined for `null` (remove the key). */
function parseValue(text: string, override: string): unknown {
  const trimmed = text.trim();
  if (trimmed === "") throw new InputError(`--set ${override}: no value after '=' (null removes a key)`);
  if (/^[[{"]/.test(trimmed)) {
    try {
      return JSON.parse(trimmed);
    } catch (error) {
      throw new InputError(`--set ${override}: the value is not valid JSON (${(error as Error).message})`);
    }
  }
  const items = trimmed.split(",").map((item) => item.trim());
  if (items.some((item) => item === "")) throw new InputError(`--set ${override}: an empty item in the list "${trimmed}"`);
  const values = items.map(scalar);
  if (values.length === 1) return values[0] === null ? undefined : values[0];
  if (values.includes(null)) throw new InputError(`--set ${override}: null can only stand alone (it removes the key)`);
  return values;
}

/** A number as JSON writes one (also 1e-3, .5 and 5.), true, false, null, or else the text itself. */
function scalar(item: string): unknown {
  if (item === "true") return true;
  if (item === "false") return false;
  if (item === "null") return null;
  if (/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(item)) return Number(item);
  return item;
}
