/**
 * Which bounds a sweep computes: the experiment's `bounds` key (docs/experiments.md, "Which bounds").
 * Every name stands for a family of columns; a column whose name is not computed stays in the tables,
 * empty. The manifest records the resolved choice, so that resume, merge, rerun and compare know it.
 */

import { SEPARATOR_BOUNDS, type SeparatorBoundName } from "./separator/separator-bounds.js";

/**
 * The a-priori names: bounds known before the run (from the data, ŵ(0) and η), in column order; "all" is
 * these. First the separator bounds of the registry (separator/separator-bounds.ts), then the others.
 */
export const A_PRIORI_KEYS: readonly APrioriKey[] = [...SEPARATOR_BOUNDS.map((bound) => bound.name), "best", "tightest", "freundSchapire"];
type APrioriKey = SeparatorBoundName | "best" | "tightest" | "freundSchapire";
/**
 * The a-posteriori names (docs/theory.md, "Why a bound is loose" and "Mistake-set bounds"): measured on the
 * run's own update rounds, listed by name only (never in "all" or the default), never part of `best`.
 */
export const A_POSTERIORI_KEYS = ["factors", "mistakeSet", "worstOrder"] as const;
/** The names `bounds` takes, in column order. */
export type BoundKey = APrioriKey | (typeof A_POSTERIORI_KEYS)[number];
export const BOUND_KEYS: readonly BoundKey[] = [...A_PRIORI_KEYS, ...A_POSTERIORI_KEYS];

/**
 * An experiment's resolved choice: "default", or the names it lists ("all" in a file is every a-priori name,
 * spelled out here, so that a later tool's new bound does not change what an old manifest meant). A list
 * that starts with "default" is the default with the names listed after it computed on every run.
 */
export type BoundsDeclaration = "default" | readonly (BoundKey | "default")[];

/**
 * When a name is computed: on every run, on no run, or (the default's Freund–Schapire and tightest separators)
 * only on a run whose data are not known to be separable: the planted law with label noise or overlap above 0,
 * or a data set (csv) for which no separating vector is known (the perceptron did not converge, and the
 * max-margin solve found none or was off). Those are the runs where they are the only bounds that apply.
 */
export type BoundMode = "always" | "unlessSeparable" | "never";
export type BoundModes = Readonly<Record<BoundKey, BoundMode>>;

/** What each name computes: its columns, what it needs, what it costs (for `--dry-run`). */
export interface BoundEntry {
  readonly key: BoundKey;
  /** Its columns in runs.csv, bound and ratio both. */
  readonly columns: readonly string[];
  /** The default's mode. */
  readonly byDefault: BoundMode;
  /** What one run pays for it, in words. */
  readonly cost: string;
}

/** The proof's four factors (docs/theory.md, "Why a bound is loose"), in column order. */
export const PROOF_FACTORS = ["gain", "alignment", "interference", "radius"] as const;
export type ProofFactorName = (typeof PROOF_FACTORS)[number];
/** A factor's column of a separator: plantedGainFactor, …, optimalRadiusFactor. */
export function factorColumn<S extends "planted" | "optimal">(separator: S, factor: ProofFactorName): `${S}${Capitalize<ProofFactorName>}Factor` {
  return `${separator}${capitalised(factor)}Factor`;
}

/** The factors' columns, separator by separator. */
export const FACTOR_COLUMNS = (["planted", "optimal"] as const).flatMap((separator) => PROOF_FACTORS.map((factor) => factorColumn(separator, factor)));

/**
 * The worst order's columns (docs/theory.md, "The worst order"), when `bounds` lists worstOrder: they follow
 * the tool's own and any plug-in's (run/table-layout.ts), so that a table without them keeps its bytes. Bound-like
 * (a median in the summaries): the longest order found (W* when exact), the proved upper bound (W* when exact:
 * exact iff the two are equal) and the states the search expanded. Ratio-like (statistics in the summaries):
 * the run's updates over W*, and W* over each bound of each separator and over the best, where W* is exact.
 */
export const WORST_ORDER_BOUND_COLUMNS = ["worstOrderLower", "worstOrderUpper", "worstOrderNodes"] as const;
export const WORST_ORDER_RATIO_COLUMNS = [
  "worstOrderLuck",
  ...(["planted", "optimal"] as const).flatMap((separator) => SEPARATOR_BOUNDS.map((bound) => `${separator}${capitalised(bound.name)}WorstRatio`)),
  "bestWorstRatio",
] as const;

/** A name with its first letter in capitals: the stem of a column (novikoff → plantedNovikoffBound). */
export function capitalised<S extends string>(text: S): Capitalize<S> {
  return (text.charAt(0).toUpperCase() + text.slice(1)) as Capitalize<S>;
}

const PER_SEPARATOR = (name: string) => [`planted${name}Bound`, `optimal${name}Bound`, `planted${name}Ratio`, `optimal${name}Ratio`];

export const BOUND_ENTRIES: Readonly<Record<BoundKey, BoundEntry>> = {
  // Each separator bound of the registry: its columns by its name, computed by default on every run.
  ...(Object.fromEntries(
    SEPARATOR_BOUNDS.map((bound) => [bound.name, { key: bound.name, columns: PER_SEPARATOR(capitalised(bound.name)), byDefault: "always", cost: bound.cost }]),
  ) as unknown as Record<SeparatorBoundName, BoundEntry>),
  best: { key: "best", columns: [...PER_SEPARATOR("Best"), "bestBound", "bestRatio"], byDefault: "always", cost: "none (the smallest of the others)" },
  tightest: {
    key: "tightest",
    columns: ["tightestHuBound", "tightestOptimisedBound", "tightestHuRatio", "tightestOptimisedRatio"],
    byDefault: "unlessSeparable",
    cost: "from ŵ(0) ≠ 0, about 50 max-margin-sized QPs (where n·dim² ≤ 2.5e5); needs optimal",
  },
  freundSchapire: {
    key: "freundSchapire",
    columns: ["plantedFreundSchapireBound", "tightestFreundSchapireBound", "plantedFreundSchapireRatio", "tightestFreundSchapireRatio"],
    byDefault: "unlessSeparable",
    cost: "from ŵ(0) = 0, a sort of the rows' margins along the planted separator; the tightest, a search over separators (with optimal, n·dim² ≤ 2.5e5)",
  },
  factors: {
    key: "factors",
    columns: FACTOR_COLUMNS,
    byDefault: "never",
    cost: "the updates counted point by point in the kernel, then a pass over the rows updated on (from ŵ(0) = 0)",
  },
  mistakeSet: {
    key: "mistakeSet",
    columns: ["plantedMistakeSetBound", "optimalMistakeSetBound", "tightestMistakeSetBound", "plantedMistakeSetRatio", "optimalMistakeSetRatio", "tightestMistakeSetRatio"],
    byDefault: "never",
    cost: "the updates counted point by point in the kernel, then a pass over the rows updated on, a separator",
  },
  worstOrder: {
    key: "worstOrder",
    columns: [...WORST_ORDER_BOUND_COLUMNS, ...WORST_ORDER_RATIO_COLUMNS],
    byDefault: "never",
    cost: "an exact search over presentation orders, up to worstOrderBudget states a run (default 300 000, ~3–5 µs each: ~1 s at most)",
  },
};

/** Every a-priori name computed on every run: `bounds: "all"`, and what folders of tools before 0.8 computed. */
export const ALL_BOUNDS: BoundModes = Object.fromEntries(BOUND_KEYS.map((key) => [key, isAPriori(key) ? "always" : "never"])) as Record<BoundKey, BoundMode>;

function isAPriori(key: BoundKey): boolean {
  return (A_PRIORI_KEYS as readonly string[]).includes(key);
}

const DEFAULT_MODES: BoundModes = Object.fromEntries(BOUND_KEYS.map((key) => [key, BOUND_ENTRIES[key].byDefault])) as Record<BoundKey, BoundMode>;

/** The mode of every name under a declaration. */
export function boundModes(declared: BoundsDeclaration): BoundModes {
  if (declared === "default") return DEFAULT_MODES;
  const byDefault = declared[0] === "default";
  return Object.fromEntries(
    BOUND_KEYS.map((key) => [key, declared.includes(key) ? "always" : byDefault && isAPriori(key) ? DEFAULT_MODES[key] : "never"]),
  ) as Record<BoundKey, BoundMode>;
}

/**
 * A declaration as the experiment file may give it ("all", "default", a name or a list, whose words may
 * include "all" or "default"), resolved: names in column order, each once; a list with "default" (and not
 * "all") is "default" followed by the names it lists, computed on every run (or "default" alone).
 */
export function resolveBounds(input: string | readonly string[] | undefined): BoundsDeclaration {
  if (input === undefined) return "default";
  const listed = typeof input === "string" ? [input] : input;
  const all = listed.includes("all");
  if (!all && listed.includes("default")) {
    const named = BOUND_KEYS.filter((key) => listed.includes(key));
    return named.length === 0 ? "default" : ["default", ...named];
  }
  return BOUND_KEYS.filter((key) => (all && isAPriori(key)) || listed.includes(key));
}

/** Whether a declaration lists the worst order (its columns join the tables: run/table-layout.ts). */
export function declaresWorstOrder(declared: BoundsDeclaration | undefined): boolean {
  return declared !== undefined && declared !== "default" && declared.includes("worstOrder");
}

/** The declaration recorded in a manifest: folders written before the `bounds` key computed every a-priori bound. */
export function recordedBounds(resolved: { readonly bounds?: BoundsDeclaration }): BoundsDeclaration {
  return resolved.bounds ?? [...A_PRIORI_KEYS];
}

/** A declaration for people and the manifest: "default", "all", or the names joined by commas ("all,factors"). */
export function describeBounds(declared: BoundsDeclaration): string {
  if (declared === "default") return "default";
  if (A_PRIORI_KEYS.every((key) => declared.includes(key))) return ["all", ...A_POSTERIORI_KEYS.filter((key) => declared.includes(key))].join(",");
  return declared.length === 0 ? "none" : declared.join(",");
}

/** Whether a run computes a name whose mode is `mode`, given whether its data are not known to be separable. */
export function computes(mode: BoundMode, notKnownSeparable: boolean): boolean {
  return mode === "always" || (mode === "unlessSeparable" && notKnownSeparable);
}

/** The name whose columns include `column`, or null for a column that is no bound's. */
export function boundKeyOfColumn(column: string): BoundKey | null {
  for (const key of BOUND_KEYS) if (BOUND_ENTRIES[key].columns.includes(column)) return key;
  return null;
}

/**
 * Which of a separator's bounds a declaration computes: each on every run or on none (only the default's
 * Freund–Schapire bounds and tightest separators depend on the run's data).
 */
export function wantedBounds(modes: BoundModes): Readonly<Record<SeparatorBoundName, boolean>> {
  // Once a declaration's modes (a sweep's runs share one object): made per run, it was 1 % of a small run's worker time.
  let wanted = WANTED.get(modes);
  if (wanted === undefined) {
    wanted = Object.fromEntries(SEPARATOR_BOUNDS.map((bound) => [bound.name, modes[bound.name] !== "never"])) as Record<SeparatorBoundName, boolean>;
    WANTED.set(modes, wanted);
  }
  return wanted;
}

const WANTED = new WeakMap<BoundModes, Readonly<Record<SeparatorBoundName, boolean>>>();
