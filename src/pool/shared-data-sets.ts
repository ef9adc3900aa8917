import type { DataSet } from "../vocabulary/data-set.js";
import type { DataSets } from "../generators/generate-data.js";

/** A data set whose arrays live in SharedArrayBuffers: handed to every worker thread once, never copied. */
export interface SharedDataSet {
  readonly name: string;
  readonly data: DataSet;
}

/** The csv generator's data sets, moved into shared memory for the pool's workerData. */
export function shareDataSets(dataSets: DataSets): SharedDataSet[] {
  return [...dataSets].map(([name, data]) => {
    const x = new Float64Array(new SharedArrayBuffer(data.x.byteLength));
    x.set(data.x);
    const y = new Int8Array(new SharedArrayBuffer(data.y.byteLength));
    y.set(data.y);
    return { name, data: { n: data.n, d: data.d, x, y, planted: null } };
  });
}

/** The map a worker thread reads its runs' data from. */
export function dataSetsOf(shared: readonly SharedDataSet[] | undefined): DataSets {
  return new Map((shared ?? []).map(({ name, data }) => [name, data]));
}
