import { peer } from "./peer-section.js";
import { sweep, scalingLarge, grid } from "./sweep-sections.js";

/** The sweeps the sections time: small runs (the per-run overheads) and heavy ones (the kernel). */

export const SMALL_RUNS = { optimal: false, grid: { n: 100, d: 10, margin: 0.1 } };

/** The heavy runs (n 1 000, d 50, margin 0.05) of scalingLarge, stagesHeavy and the peer's heavy sweep. */
export const HEAVY_GRID = { n: 1000, d: 50, margin: 0.05 };
