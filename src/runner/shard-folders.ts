import { InputError } from "../vocabulary/input-error.js";
import type { RunRow } from "../run/run-types.js";
import { readManifest, requireComplete, type Manifest } from "./manifest.js";
import { splitOf, type Shard } from "../sweep/shard.js";
import { isWithin } from "./linked-paths.js";
import { differingRunKey, type RunSpec } from "../run/run-types.js";

/** The shard folders a merge reads, checked before it reads a record: each a complete shard, none overlapping the output, every record the sweep's. */

/** Refuses a record that is not the sweep's run in its place (spliced from another sweep or seed, with a valid check). */
export function checkRecord(dir: string, row: RunRow, spec: RunSpec): void {
  const differs = differingRunKey(row, spec);
  if (differs !== null) {
    throw new InputError(
      `${dir}: run ${row.run}'s record has ${differs} ${JSON.stringify(row[differs])} where the sweep's run ${row.run} has ${JSON.stringify(spec[differs])}: a record of another sweep or seed is in this shard; run the shard again`,
    );
  }
}

export function readShardManifest(dir: string): Manifest & { readonly shard: Shard } {
  const manifest = readManifest(dir, "merge joins folders written by run --shard");
  if (manifest.shard === null) throw new InputError(`${dir} holds a whole sweep, not a shard`);
  requireComplete(dir, manifest);
  return manifest as Manifest & { readonly shard: Shard };
}

/**
 * Refuses an output folder that is a shard folder, lies inside one, or holds one (links resolved): the
 * merge writes and, with --overwrite, clears its output folder, which would destroy the shard it reads.
 */
export function refuseOverlap(outDir: string, shardDirs: readonly string[]): void {
  for (const dir of shardDirs) {
    if (isWithin(outDir, dir)) {
      const same = isWithin(dir, outDir);
      throw new InputError(`${outDir}: is ${same ? "" : "inside "}the shard folder ${dir}; merge writes its own folder (and --overwrite clears it): choose another`);
    }
    if (isWithin(dir, outDir)) throw new InputError(`${outDir}: holds the shard folder ${dir}; merge writes its own folder (and --overwrite clears it): choose one beside the shards`);
  }
}

/** Refuses a shard cut by another split model than the first shard (shards of 0.14 and of 0.15): its runs are others. */
export function refuseOtherSplit(dir: string, shard: Shard, firstDir: string, first: Shard): void {
  if (splitOf(shard) === splitOf(first)) return;
  throw new InputError(
    `${dir} was cut by split model ${splitOf(shard)}, ${firstDir} by split model ${splitOf(first)} (shards run by perceptron-lab 0.14 and 0.15): the shards of one sweep must be cut alike; rerun them with one version`,
  );
}
