import { tmpdir } from "node:os";
import { PointAccumulator } from "./point-accumulator.js";
import { DIGEST_POINT, digestWidth, type RunDigest } from "./run-digest.js";
import { BUILT_IN, type TableLayout } from "../run/table-layout.js";
import { SpillFolder } from "./spill-folder.js";
import type { SummaryRow } from "../run/summary-types.js";

/**
 * Streaming summaries: runs arrive in run order, and a grid point's runs are consecutive, so only the
 * current point is held, reduced to the numbers its summary needs (see PointAccumulator).
 */
export class PointSummariser {
  #accumulator: PointAccumulator | null = null;
  readonly #spillFile: () => { fd: number; path: string };

  readonly #width: number;

  /**
   * `spill`: where a point's columns spill past their first 16 Ki values; default, a private folder in the
   * system's temporary folder. `layout`: the sweep's columns (its plug-in bounds'), as its digests hold them.
   */
  constructor(
    readonly spill: SpillFolder = new SpillFolder(tmpdir(), "perceptron-lab-spill-"),
    readonly layout: TableLayout = BUILT_IN,
  ) {
    this.#spillFile = () => spill.create();
    this.#width = digestWidth(layout);
  }

  /** Adds a batch's runs; returns the summaries of the points they completed (a point ends where the next starts). */
  add(digest: RunDigest): SummaryRow[] {
    const finished: SummaryRow[] = [];
    const { values } = digest;
    let head = 0;
    // Each stretch of consecutive runs of one point goes to its accumulator at once.
    for (let k = 0; k < digest.count; ) {
      const point = values[k * this.#width + DIGEST_POINT]!;
      if (this.#accumulator?.head.point !== point) {
        if (this.#accumulator !== null) finished.push(this.#accumulator.summary());
        while (digest.heads[head]!.point !== point) head++;
        this.#accumulator = new PointAccumulator(digest.heads[head]!, this.#spillFile, undefined, this.layout);
      }
      let next = k + 1;
      while (next < digest.count && values[next * this.#width + DIGEST_POINT] === point) next++;
      this.#accumulator.addRuns(values, k * this.#width, next - k);
      k = next;
    }
    return finished;
  }

  /** The last point's summary, if any runs are pending. */
  finish(): SummaryRow | null {
    const summary = this.#accumulator?.summary() ?? null;
    this.#accumulator = null;
    this.spill.dispose();
    return summary;
  }
}
