import { readDataCsv } from "./src/dataset/read-data-csv.ts";
import { fitDataSet } from "./src/run/fit-data-set.ts";
let t = performance.now();
const data = readDataCsv("/tmp/big.csv");
console.log("read", (performance.now() - t).toFixed(0), "ms", process.memoryUsage().rss / 1e6, "MB");
t = performance.now();
const r = fitDataSet(data, { bias: true, eta: 1, init: { kind: "zero" }, order: "cyclic", maxEpochs: 20, seed: 1 });
console.log("fit", (performance.now() - t).toFixed(0), "ms", r.optimalStatus);
