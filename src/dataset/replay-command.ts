import type { RunSpec } from "../run/run-types.js";

/** The `fit` command that replays a run on its data set written at `path`: same data, ŵ(0), order. */
export function replayCommand(spec: RunSpec, path: string): string {
  return (
    `perceptron-lab fit --data ${path} ${spec.bias ? "--bias" : "--no-bias"} --eta ${spec.eta} ` +
    `--init ${spec.init} --order ${spec.order} --seed ${spec.seed} --max-epochs ${spec.maxEpochs}`
  );
}
