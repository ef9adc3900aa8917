import type { DataSet } from "../vocabulary/data-set.js";
import type { RunSpec } from "../run/run-types.js";
import { isOneClass } from "../experiment/read-data-csv.js";

/** The `fit` command that replays a run on its data set written at `path`: same data, ŵ(0), order. */
export function replayCommand(spec: RunSpec, data: DataSet, path: string): string {
  return (
    `perceptron-lab fit --data ${path} ${spec.bias ? "--bias" : "--no-bias"} --eta ${spec.eta} ` +
    `--init ${spec.init} --order ${spec.order} --seed ${spec.seed} --data-version ${spec.dataVersion} --max-epochs ${spec.maxEpochs}` +
    (isOneClass(data.y) ? " --one-class" : "")
  );
}
