import { capitalised, declaresWorstOrder, WORST_ORDER_BOUND_COLUMNS, WORST_ORDER_RATIO_COLUMNS, type BoundsDeclaration } from "../bounds/bound-choice.js";
import { SEPARATORS } from "../vocabulary/point-parameters.js";
import { COLUMN_KIND, RUN_COLUMN_KINDS, RUN_COLUMNS, type ColumnKind } from "./run-columns.js";
import type { PluginInfo } from "../vocabulary/plugin-info.js";

/**
 * The run tables' columns for a sweep: RUN_COLUMNS, then those of its plug-in bounds (docs/plugins.md), each
 * a number: every plug-in bound's planted and max-margin columns, then their ratios, in the order the
 * experiment's plug-ins define the bounds; and where `bounds` lists worstOrder, the worst order's columns
 * (bound-choice.ts) after each group. A sweep with neither has exactly RUN_COLUMNS (BUILT_IN).
 *
 * A layout is named by its groups: the plug-in bounds' names, and WORST_ORDER last where declared.
 */
export interface TableLayout {
  /** The groups it was made from: the plug-in bounds' names, then WORST_ORDER where declared. */
  readonly groups: readonly string[];
  /** The plug-in bounds' names, in order. */
  readonly extraBounds: readonly string[];
  /** Whether the worst order's columns are in. */
  readonly worstOrder: boolean;
  /** planted<Name>Bound, optimal<Name>Bound for each name in turn; then the worst order's bound-like columns. */
  readonly extraBoundColumns: readonly string[];
  /** planted<Name>Ratio, optimal<Name>Ratio for each name in turn; then the worst order's ratio-like columns. */
  readonly extraRatioColumns: readonly string[];
  readonly columns: readonly string[];
  readonly kinds: readonly ColumnKind[];
  /** Numbers a binary row holds: columns.length. */
  readonly width: number;
}

/** The group of the worst order's columns, last in a layout's groups: a name no plug-in bound may take (it is a bound key). */
export const WORST_ORDER = "worstOrder";

export const BUILT_IN: TableLayout = layoutOf([]);

/** A sweep's groups: its plug-in bounds, then WORST_ORDER where its declaration lists the worst order. */
export function layoutGroups(pluginBounds: readonly string[], bounds: BoundsDeclaration | undefined): string[] {
  return declaresWorstOrder(bounds) ? [...pluginBounds, WORST_ORDER] : [...pluginBounds];
}

/** The layout of a sweep with the groups `extraBounds` (layoutGroups; one object per list, kept). */
export function tableLayout(extraBounds: readonly string[] | undefined): TableLayout {
  if (extraBounds === undefined || extraBounds.length === 0) return BUILT_IN;
  const key = extraBounds.join(",");
  let layout = LAYOUTS.get(key);
  if (layout === undefined) LAYOUTS.set(key, (layout = layoutOf(extraBounds)));
  return layout;
}

const LAYOUTS = new Map<string, TableLayout>();

function layoutOf(groups: readonly string[]): TableLayout {
  const worstOrder = groups.includes(WORST_ORDER);
  const extraBounds = groups.filter((name) => name !== WORST_ORDER);
  const per = (suffix: string) => extraBounds.flatMap((name) => SEPARATORS.map((separator) => `${separator}${capitalised(name)}${suffix}`));
  const extraBoundColumns = [...per("Bound"), ...(worstOrder ? WORST_ORDER_BOUND_COLUMNS : [])];
  const extraRatioColumns = [...per("Ratio"), ...(worstOrder ? WORST_ORDER_RATIO_COLUMNS : [])];
  const extra = [...extraBoundColumns, ...extraRatioColumns];
  const taken = extra.find((column) => (RUN_COLUMNS as readonly string[]).includes(column));
  if (taken !== undefined) throw new RangeError(`a plug-in bound's column ${taken} is a column of the tables already`);
  return {
    groups: [...groups],
    extraBounds,
    worstOrder,
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

/** The layout of a result folder's tables, from what its manifest records of the experiment's plug-ins and bounds. */
export function recordedLayout(
  manifest: { readonly resolved: { readonly plugins?: Readonly<Record<string, PluginInfo>>; readonly bounds?: BoundsDeclaration } } | null,
): TableLayout {
  return tableLayout(layoutGroups(pluginBoundNames(manifest?.resolved.plugins), manifest?.resolved.bounds));
}
