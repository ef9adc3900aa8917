import { tmpdir } from "node:os";
import { PointAccumulator } from "./point-accumulator.js";
import { DIGEST_POINT, DIGEST_WIDTH, type RunDigest } from "./run-digest.js";
import { SpillFolder } from "./spill-folder.js";
import type { SummaryRow } from "./summary-types.js";

/**
 * Streaming summaries: runs arrive in run order, and a grid point's runs are consecutive, so only the
 * current point is held, reduced to the numbers its summary needs (see PointAccumulator).
 */
export class PointSummariser {
  #accumulator: PointAccumulator | null = null;
  readonly #spillFile: () => { fd: number; path: string };

  /** `spill`: where a point's columns spill past their first 16 Ki values; default, a private folder in the system's temporary folder. */
  constructor(readonly spill: SpillFolder = new SpillFolder(tmpdir(), "perceptron-lab-spill-")) {
    this.#spillFile = () => spill.create();
  }

  /** Adds a batch's runs; returns the summaries of the points they completed (a point ends where the next starts). */
  add(digest: RunDigest): SummaryRow[] {
    const finished: SummaryRow[] = [];
    const { values } = digest;
    let head = 0;
    // Each stretch of consecutive runs of one point goes to its accumulator at once.
    for (let k = 0; k < digest.count; ) {
      const point = values[k * DIGEST_WIDTH + DIGEST_POINT]!;
      if (this.#accumulator?.head.point !== point) {
        if (this.#accumulator !== null) finished.push(this.#accumulator.summary());
        while (digest.heads[head]!.point !== point) head++;
        this.#accumulator = new PointAccumulator(digest.heads[head]!, this.#spillFile);
      }
      let next = k + 1;
      while (next < digest.count && values[next * DIGEST_WIDTH + DIGEST_POINT] === point) next++;
      this.#accumulator.addRuns(values, k * DIGEST_WIDTH, next - k);
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
