import { createRequire } from "node:module";
import { extname } from "node:path";
import { InputError } from "./input-error.js";

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
  return format === "json" ? parseJson(text, where) : parseYamlText(text, where);
}

function parseJson(text: string, where: string): unknown {
  try {
    return JSON.parse(text);
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
}

/**
 * YAML 1.2 with the core schema (true/false only, no `yes`/`no` booleans; numbers as JSON reads them),
 * duplicate keys refused, and aliases limited (the yaml package's default) so that a small file cannot
 * expand into a huge one.
 */
function parseYamlText(text: string, where: string): unknown {
  const { parse, YAMLParseError } = yaml();
  try {
    return parse(text, { schema: "core", uniqueKeys: true });
  } catch (error) {
    if (error instanceof YAMLParseError) {
      const at = error.linePos?.[0];
      const reason = error.message.split("\n")[0]!.replace(/ at line \d+, column \d+:?$/, "");
      throw new InputError(`${where}${at ? `:${at.line}:${at.col}` : ""}: invalid YAML: ${reason}`);
    }
    throw new InputError(`${where}: invalid YAML: ${(error as Error).message.split("\n")[0]}`);
  }
}
