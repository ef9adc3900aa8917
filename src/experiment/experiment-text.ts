import { createRequire } from "node:module";
import { extname } from "node:path";
import { InputError } from "../vocabulary/input-error.js";

/**
 * The yaml package (CommonJS, ~70 modules), required by the first YAML experiment instead of imported
 * by every command's start-up: most experiments are JSON.
 */
const yaml = (): typeof import("yaml") => createRequire(import.meta.url)("yaml") as typeof import("yaml");

export type ExperimentFormat = "json" | "yaml";

/**
 * The format of an experiment: YAML for a .yaml or .yml file, JSON for any other file; from standard
 * input (`-`), JSON when the text opens with `{`, YAML otherwise.
 */
export function experimentFormat(path: string, text: string): ExperimentFormat {
  if (path === "-") return text.trimStart().startsWith("{") ? "json" : "yaml";
  return /^\.ya?ml$/i.test(extname(path)) ? "yaml" : "json";
}

/** Parses an experiment's text; a syntax error is an InputError of one line naming `where`, line and column. */
export function parseExperimentText(text: string, where: string, format: ExperimentFormat): unknown {
  if (text.trim() === "") {
    const what = where === "standard input" ? "nothing came, expected an experiment (JSON or YAML)" : `the file is empty, expected a ${format === "json" ? "JSON" : "YAML"} object`;
    throw new InputError(`${where}: ${what}`);
  }
  // A byte-order mark (U+FEFF, which some editors write first) is no part of the text's content.
  const content = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  return format === "json" ? parseJson(content, where) : parseYamlText(content, where);
}

function parseJson(text: string, where: string): unknown {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    const message = (error as Error).message;
    const position = /at position (\d+)/.exec(message);
    if (position) {
      const offset = Number(position[1]);
      const before = text.slice(0, offset).split("\n");
      const reason = message.replace(/\s*in JSON at position \d+.*$/, "").replace(/\s*\(line \d+ column \d+\)$/, "");
      throw new InputError(`${where}:${before.length}:${before.at(-1)!.length + 1}: invalid JSON: ${reason}`);
    }
    throw new InputError(`${where}: invalid JSON: ${message}`);
  }
  const duplicate = duplicateKey(text);
  if (duplicate !== null) {
    throw new InputError(`${where}:${duplicate.line}:${duplicate.column}: key ${JSON.stringify(duplicate.key)} appears twice in one object (JSON would keep the last one silently): give it once`);
  }
  return value;
}

/**
 * The first key that repeats within one object of a valid JSON text, with its line and column, or null.
 * JSON.parse keeps the last of repeated keys without a word (as YAML, with uniqueKeys, does not): a scan of
 * the text's strings and brackets, each object's keys in a set.
 */
function duplicateKey(text: string): { key: string; line: number; column: number } | null {
  const objects: (Set<string> | null)[] = [];
  for (let at = 0; at < text.length; at++) {
    const char = text[at]!;
    if (char === "{") objects.push(new Set());
    else if (char === "[") objects.push(null);
    else if (char === "}" || char === "]") objects.pop();
    else if (char === '"') {
      let end = at + 1;
      while (text[end] !== '"') end += text[end] === "\\" ? 2 : 1;
      const keys = objects.at(-1);
      // A string is a key where a colon follows it (after blanks) inside an object.
      let next = end + 1;
      while (/\s/.test(text[next] ?? "")) next++;
      if (keys && text[next] === ":") {
        const key = JSON.parse(text.slice(at, end + 1)) as string;
        if (keys.has(key)) {
          const before = text.slice(0, at).split("\n");
          return { key, line: before.length, column: before.at(-1)!.length + 1 };
        }
        keys.add(key);
      }
      at = end;
    }
  }
  return null;
}

/**
 * YAML 1.2 with the core schema (true/false only, no `yes`/`no` booleans; numbers as JSON reads them),
 * duplicate keys refused, and aliases limited (the yaml package's default) so that a small file cannot
 * expand into a huge one.
 */
function parseYamlText(text: string, where: string): unknown {
  const { parseAllDocuments, YAMLError } = yaml();
  try {
    // Warnings (an unknown tag such as !foo, which would read as a plain string) are refused like errors,
    // rather than printed by Node as a process warning and the value read another way. Every document of
    // the stream is parsed so that a second one (after `---`) is refused rather than silently ignored, as
    // parseDocument, which reads the first only, would do.
    const parsed = parseAllDocuments(text, { schema: "core", uniqueKeys: true, logLevel: "silent" });
    const documents = Array.isArray(parsed) ? parsed : [];
    for (const document of documents) {
      const problem = document.errors[0] ?? document.warnings[0];
      if (problem !== undefined) throw problem;
    }
    if (documents.length > 1) {
      const start = documents[1]!.range[0];
      const line = text.slice(0, start).split("\n").length;
      throw new InputError(`${where}:${line}:1: invalid YAML: a second document (after "---") where one experiment was expected: put one experiment in a file`);
    }
    return documents[0]?.toJS() ?? null;
  } catch (error) {
    if (error instanceof InputError) throw error;
    if (error instanceof YAMLError) {
      const at = error.linePos?.[0];
      const reason = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
      throw new InputError(`${where}${at ? `:${at.line}:${at.col}` : ""}: invalid YAML: ${reason}`);
    }
    throw new InputError(`${where}: invalid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
}
