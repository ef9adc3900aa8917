import { existsSync } from "node:fs";
import { isAbsolute, join } from "node:path";
import { PACKAGE_ROOT } from "../runner/tool-info.js";
import type { Shard } from "../sweep/shard.js";
import { UsageError } from "./cli-error.js";
import { runTablesOf, type RunTableName } from "../vocabulary/result-files.js";

export const DEFAULT_EXPERIMENT = "experiments/quick.json";

/** A sweep larger than this is probably a typo in a grid: it needs --yes. */
export const MAX_RUNS_UNASKED = 10_000_000;
/** Grid combinations (valid or not) past which planning needs --yes: the walk takes about a second a million. */
export const MAX_COMBINATIONS_UNASKED = 1_000_000;


/** The default experiment: experiments/quick.json here, or the one shipped with the package. */
export function defaultExperimentPath(): string {
  return existsSync(DEFAULT_EXPERIMENT) ? DEFAULT_EXPERIMENT : join(PACKAGE_ROOT, DEFAULT_EXPERIMENT);
}

/**
 * An experiment file as given, or, when a relative path names no file here but one shipped with the
 * package (`experiments/margins.json` from a project that installed perceptron-lab), the shipped one.
 */
export function experimentPath(given: string): string {
  if (given === DEFAULT_EXPERIMENT) return defaultExperimentPath();
  if (existsSync(given) || isAbsolute(given)) return given;
  const shipped = join(PACKAGE_ROOT, given);
  return existsSync(shipped) ? shipped : given;
}

/**
 * The `--set` overrides as given. `--set.grid.margin=0.1` reaches yargs as an object (its dot notation),
 * not a list of `key=value` texts: refused, saying how to write it.
 */
export function setOverrides(value: unknown): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value)) return value.map(String);
  const flattened = typeof value === "object" && value !== null ? flatKeys(value as Record<string, unknown>).join(" ") : String(value);
  throw new UsageError(`--set.${flattened}: write --set ${flattened.split(" ")[0]} (a space or '=' after --set, not a dot)`);
}

function flatKeys(object: Record<string, unknown>, prefix = ""): string[] {
  return Object.entries(object).flatMap(([key, value]) =>
    value !== null && typeof value === "object" && !Array.isArray(value) ? flatKeys(value as Record<string, unknown>, `${prefix}${key}.`) : [`${prefix}${key}=${Array.isArray(value) ? value.join(",") : String(value)}`],
  );
}

/** A whole number flag within [min, max], or a UsageError naming the flag. */
export function wholeNumberFlag(flag: string, value: unknown, min: number, max: number): number {
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isInteger(number) || number < min || number > max) {
    throw new UsageError(`--${flag} ${String(value)}: must be a whole number from ${min} to ${max}`);
  }
  return number;
}

export function positiveNumberFlag(flag: string, value: unknown): number {
  const number = Number(value);
  if (typeof value === "boolean" || !Number.isFinite(number) || number <= 0) {
    throw new UsageError(`--${flag} ${String(value)}: must be a finite number greater than 0`);
  }
  return number;
}

/**
 * --shard: `i/n` (from 1, as vitest and jest count), or `auto` from a job array's environment: Slurm
 * (SLURM_ARRAY_TASK_ID, counted from SLURM_ARRAY_TASK_MIN, default 0, over SLURM_ARRAY_TASK_COUNT) or a
 * Kubernetes Indexed Job (JOB_COMPLETION_INDEX, from 0; the count as `auto/<n>`, since Kubernetes does
 * not put the completions in the environment).
 */
export function parseShard(text: string, env: NodeJS.ProcessEnv = process.env): Shard {
  const auto = /^auto(?:\/(\d+))?$/.exec(text);
  if (auto) {
    const given = auto[1] === undefined ? undefined : Number(auto[1]);
    if (env.SLURM_ARRAY_TASK_ID !== undefined) {
      const count = given ?? Number(env.SLURM_ARRAY_TASK_COUNT);
      const index = Number(env.SLURM_ARRAY_TASK_ID) - Number(env.SLURM_ARRAY_TASK_MIN ?? 0) + 1;
      return checkShard(`auto (Slurm task ${env.SLURM_ARRAY_TASK_ID})`, index, count);
    }
    if (env.JOB_COMPLETION_INDEX !== undefined) {
      if (given === undefined) throw new UsageError("--shard auto: a Kubernetes Indexed Job needs the number of shards, as --shard auto/<completions>");
      return checkShard(`auto (JOB_COMPLETION_INDEX ${env.JOB_COMPLETION_INDEX})`, Number(env.JOB_COMPLETION_INDEX) + 1, given);
    }
    throw new UsageError("--shard auto: found neither SLURM_ARRAY_TASK_ID (Slurm job array) nor JOB_COMPLETION_INDEX (Kubernetes Indexed Job) in the environment");
  }
  const match = /^(\d+)\/(\d+)$/.exec(text);
  if (!match) throw new UsageError(`--shard ${text}: use i/n (i from 1 to n), auto or auto/<n>`);
  return checkShard(text, Number(match[1]), Number(match[2]));
}

function checkShard(what: string, index: number, count: number): Shard {
  if (!Number.isSafeInteger(count) || count < 1) throw new UsageError(`--shard ${what}: the number of shards must be a whole number from 1 (got ${count})`);
  if (!Number.isSafeInteger(index) || index < 1 || index > count) throw new UsageError(`--shard ${what}: the shard must be from 1 to ${count} (got ${index})`);
  return { index, count };
}

/** --tables, as run, merge and slurm take it (docs/outputs.md, "The record and its views"). */
export const TABLES_OPTION = {
  type: "string",
  describe: "The run tables to keep, a comma list of csv, jsonl, parquet: runs.parquet is always written; runs.csv and runs.jsonl are views of the same rows (--tables parquet formats no text: the fastest, ~1/10 of the disk)",
  defaultDescription: "the experiment's \"tables\", else csv,jsonl,parquet",
} as const;

/** --parquet, kept for the scripts of before 0.16: every folder has runs.parquet now. */
export const PARQUET_OPTION = { type: "boolean", describe: "Kept for scripts of before 0.16: runs.parquet is always written now", default: false } as const;

/** --parquet-only: what --tables parquet says. */
export const PARQUET_ONLY_OPTION = { type: "boolean", describe: "The runs as runs.parquet only: the same as --tables parquet", default: false } as const;

/** The tables --tables and --parquet-only ask for; undefined when neither is given (the experiment's, or the folder's, then). */
export function tablesFlag(tables: string | undefined, parquetOnly: boolean): RunTableName[] | undefined {
  if (tables === undefined) return parquetOnly ? ["parquet"] : undefined;
  const parsed = runTablesOf(tables);
  if ("problem" in parsed) throw new UsageError(`--tables ${tables}: ${parsed.problem}`);
  if (parquetOnly && parsed.tables.length > 1) throw new UsageError(`--parquet-only and --tables ${tables}: --parquet-only keeps runs.parquet alone; choose one`);
  return parsed.tables;
}
