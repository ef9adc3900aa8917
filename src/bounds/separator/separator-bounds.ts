import { hu } from "./hu.js";
import { novikoff } from "./novikoff.js";
import { optimised } from "./optimised.js";
import { snapp } from "./snapp.js";

/**
 * The bounds computed from a separator (planted, max-margin), in column order: the registry. A new one is
 * a module that exports its SeparatorBound (separator-bound.ts), and its line here; `best` is the smallest
 * of those computed. Its columns, its name in `bounds` (computed by default), the guard, the summaries, the
 * printed table's and the report's bound columns follow from this list.
 */
export const SEPARATOR_BOUNDS = [novikoff, snapp, hu, optimised] as const;

export type SeparatorBoundName = (typeof SEPARATOR_BOUNDS)[number]["name"];
