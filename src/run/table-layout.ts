import { capitalised } from "../bounds/bound-choice.js";
import { SEPARATORS } from "../vocabulary/point-parameters.js";
import { COLUMN_KIND, RUN_COLUMN_KINDS, RUN_COLUMNS, type ColumnKind } from "./run-columns.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";

/**
 * The run tables' columns for a sweep: RUN_COLUMNS, then those of its plug-in bounds (docs/plugins.md), each
 * a number: every plug-in bound's planted and max-margin columns, then their ratios, in the order the
 * experiment's plug-ins define the bounds. A sweep without plug-in bounds has exactly RUN_COLUMNS (BUILT_IN).
 */
export interface TableLayout {
  /** The plug-in bounds' names, in order. */
  readonly extraBounds: readonly string[];
  /** planted<Name>Bound, optimal<Name>Bound for each name in turn. */
  readonly extraBoundColumns: readonly string[];
  /** planted<Name>Ratio, optimal<Name>Ratio for each name in turn. */
  readonly extraRatioColumns: readonly string[];
  readonly columns: readonly string[];
  readonly kinds: readonly ColumnKind[];
  /** Numbers a binary row holds: columns.length. */
  readonly width: number;
}

export const BUILT_IN: TableLayout = layoutOf([]);

/** The layout of a sweep that computes the plug-in bounds `extraBounds` (one object per list, kept). */
export function tableLayout(extraBounds: readonly string[] | undefined): TableLayout {
  if (extraBounds === undefined || extraBounds.length === 0) return BUILT_IN;
  const key = extraBounds.join(",");
  let layout = LAYOUTS.get(key);
  if (layout === undefined) LAYOUTS.set(key, (layout = layoutOf(extraBounds)));
  return layout;
}

const LAYOUTS = new Map<string, TableLayout>();

function layoutOf(extraBounds: readonly string[]): TableLayout {
  const per = (suffix: string) => extraBounds.flatMap((name) => SEPARATORS.map((separator) => `${separator}${capitalised(name)}${suffix}`));
  const extraBoundColumns = per("Bound");
  const extraRatioColumns = per("Ratio");
  const extra = [...extraBoundColumns, ...extraRatioColumns];
  const taken = extra.find((column) => (RUN_COLUMNS as readonly string[]).includes(column));
  if (taken !== undefined) throw new RangeError(`a plug-in bound's column ${taken} is a column of the tables already`);
  return {
    extraBounds: [...extraBounds],
    extraBoundColumns,
    extraRatioColumns,
    columns: [...RUN_COLUMNS, ...extra],
    kinds: [...RUN_COLUMN_KINDS, ...extra.map(() => COLUMN_KIND.number)],
    width: RUN_COLUMNS.length + extra.length,
  };
}

/** The plug-in bounds of an experiment's plug-ins, in the order of its plugins and their definitions: the tables' extra columns. */
export function pluginBoundNames(plugins: Readonly<Record<string, PluginInfo>> | undefined): string[] {
  return Object.values(plugins ?? {}).flatMap((info) => (info.bounds ?? []).map((bound) => bound.name));
}

/** The layout of a result folder's tables, from what its manifest records of the experiment's plug-ins. */
export function recordedLayout(manifest: { readonly resolved: { readonly plugins?: Readonly<Record<string, PluginInfo>> } } | null): TableLayout {
  return tableLayout(pluginBoundNames(manifest?.resolved.plugins));
}
