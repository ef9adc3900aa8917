import type { Argv } from "yargs";
import { readDataCsv } from "../experiment/read-data-csv.js";
import { EXPERIMENT_DEFAULTS } from "../experiment/experiment.js";
import { ORDERS } from "../vocabulary/point-parameters.js";
import { readInit } from "../perceptron/initial-weights.js";
import type { PresentationOrder } from "../vocabulary/point-parameters.js";
import { DATA_VERSIONS, LATEST_DATA_VERSION, type DataVersion } from "../random/data-version.js";
import { fitDataSet, type FitReport } from "../run/fit-data-set.js";
import { SEPARATOR_BOUNDS } from "../bounds/separator/separator-bounds.js";
import { DEFAULT_WORST_ORDER_BUDGET } from "../bounds/worst-order.js";
import { EXIT, UsageError } from "./cli-error.js";
import { positiveNumberFlag, wholeNumberFlag } from "./shared-options.js";

export function fitBuilder(yargs: Argv) {
  return yargs
    .option("data", { type: "string", requiresArg: true, describe: "CSV with a header, a label column (-1/+1 or 0/1) and numeric features", demandOption: true })
    .option("bias", { type: "boolean", describe: "Learn a bias (--no-bias: through the origin)", default: true })
    .option("eta", { type: "number", describe: "Increment η > 0", default: EXPERIMENT_DEFAULTS.eta })
    .option("init", {
      type: "string",
      describe: "ŵ(0): zero, normal:<scale>, uniform:<scale>, or the weights w1,...,wd,b (bias last)",
      default: EXPERIMENT_DEFAULTS.init,
    })
    .option("order", { choices: ORDERS, describe: "Presentation order", default: EXPERIMENT_DEFAULTS.order })
    .option("seed", { type: "number", describe: "Seeds a random init and the shuffled order (a run's seed column replays it)", default: 1 })
    .option("data-version", {
      choices: DATA_VERSIONS,
      describe: "How a random init and a shuffled order are drawn from the seed (docs/theory.md, \"Data versions\"); a run's replay command names its sweep's",
      default: LATEST_DATA_VERSION,
    })
    .option("max-epochs", { type: "number", describe: "Epoch cap", default: EXPERIMENT_DEFAULTS.maxEpochs })
    .option("one-class", { type: "boolean", describe: "Accept data whose labels are all the same", default: false })
    .option("worst-order", {
      type: "boolean",
      describe: "Also search for W*, the most updates any presentation order makes (docs/theory.md, \"The worst order\"), and print that order (rows from 0)",
      default: false,
    })
    .option("worst-order-budget", { type: "number", describe: "With --worst-order: the most states the search expands (past it, a bracket)", default: DEFAULT_WORST_ORDER_BUDGET })
    .option("json", { type: "boolean", describe: "Print the report as JSON on stdout", default: false });
}

interface FitArguments {
  data: string;
  bias: boolean;
  eta: number;
  init: string;
  order: string;
  seed: number;
  dataVersion: DataVersion;
  maxEpochs: number;
  oneClass: boolean;
  worstOrder: boolean;
  worstOrderBudget: number;
  json: boolean;
}

export async function fitHandler(argv: FitArguments): Promise<number> {
  if (argv.data.trim() === "") throw new UsageError("--data is empty: name the CSV file (an unset variable in a script?)");
  const eta = positiveNumberFlag("eta", argv.eta);
  const seed = wholeNumberFlag("seed", argv.seed, 0, Number.MAX_SAFE_INTEGER);
  const maxEpochs = wholeNumberFlag("max-epochs", argv.maxEpochs, 1, Number.MAX_SAFE_INTEGER);
  const init = readInit(String(argv.init), true);
  if ("error" in init) throw new UsageError(`--init ${JSON.stringify(String(argv.init))} ${init.error}`);
  const data = await readDataCsv(argv.data, { oneClass: argv.oneClass });
  const dim = argv.bias ? data.d + 1 : data.d;
  if (init.kind === "explicit" && init.weights.length !== dim) {
    const layout = argv.bias ? `${data.d} feature weights and the bias, last` : `${data.d} feature weights (no bias)`;
    throw new UsageError(`--init: ${init.weights.length} weights given, the learner needs ${dim}: ${layout}`);
  }
  const budget = wholeNumberFlag("worst-order-budget", argv.worstOrderBudget, 1, Number.MAX_SAFE_INTEGER);
  const report = fitDataSet(data, { bias: argv.bias, eta, init, order: argv.order as PresentationOrder, maxEpochs, seed, dataVersion: argv.dataVersion }, argv.worstOrder ? { budget } : undefined);
  process.stdout.write(argv.json ? `${JSON.stringify(report, null, 2)}\n` : humanReport(argv.data, report, argv));
  if (report.violations > 0) {
    process.stderr.write(`Error: ${report.updates} updates exceed ${report.violations} bound${report.violations > 1 ? "s" : ""} of a separating vector, which is a bug\n`);
    return EXIT.failed;
  }
  return EXIT.ok;
}

function humanReport(path: string, r: FitReport, argv: { readonly worstOrder: boolean }): string {
  const separable = r.separable === null ? "unknown" : r.separable ? "yes" : "no";
  const margin =
    r.margin === null
      ? `no max-margin separator (${r.optimalStatus}${r.note ? `: ${r.note}` : ""})`
      : `max-margin γ* = ${r.margin} (${r.optimalStatus}${r.optimalStatus === "optimal" ? "" : `: ${r.note}`})`;
  const lines = [
    `data       ${path}: n = ${r.n} points, d = ${r.d} features`,
    `learner    bias ${r.bias ? "yes" : "no"}, eta ${r.eta}, init ${r.init}, order ${r.order}, seed ${r.seed} (data version ${r.dataVersion}), max epochs ${r.maxEpochs}`,
    `result     ${r.converged ? "converged" : "NOT converged"}: ${r.updates} updates in ${r.epochs} epochs`,
    `radius     R = ${r.radius} (learner's coordinates, bias included)`,
    `separable  ${separable}; ${margin}`,
    `mistakes   ${r.firstEpochMistakes} in the first epoch, ${r.lastEpochMistakes} in the last; the final ŵ misclassifies ${r.finalErrors}, the pocket (best epoch's ŵ) ${r.pocketErrors}`,
  ];
  if (r.freundSchapireBound !== null) {
    lines.push(`Freund–Schapire  ${r.freundSchapireBound} over every (u, γ) at E = ${r.epochs} epochs (holds without separability); updates/bound ${r.updates / r.freundSchapireBound}`);
  }
  if (r.tightestHuBound !== null) lines.push(`tightest   Hu D² ${r.tightestHuBound}, N(v) ${r.tightestOptimisedBound} over every separator`);
  if (r.factors !== null) {
    const { gain, alignment, interference, radius } = r.factors;
    lines.push(
      `why loose  (R/γ*)²/updates = (A·B·C·D)² = ${((gain ?? NaN) * (alignment ?? NaN) * (interference ?? NaN) * (radius ?? NaN)) ** 2}: A gain ${gain}, B alignment ${alignment}, C interference ${interference}, D radius ${radius} (the proof's four steps, docs/theory.md)`,
    );
  }
  if (r.mistakeSetBound !== null || r.tightestMistakeSetBound !== null) {
    const at = [r.mistakeSetBound === null ? null : `${r.mistakeSetBound} at the max-margin separator`, r.tightestMistakeSetBound === null ? null : `${r.tightestMistakeSetBound} at the tightest Freund–Schapire (u, γ)`];
    lines.push(`a posteriori  mistake-set bound ${at.filter((part) => part !== null).join(", ")}: a certificate on this run's own update rounds, not a prediction`);
  }
  if (r.worstOrder !== null) {
    const w = r.worstOrder;
    const value = w.status === "exact" ? `W* = ${w.lower} (exact` : `${w.lower} ≤ W* ≤ ${w.upper} (a bracket: the search stopped at its budget`;
    const luck = w.status === "exact" && w.lower > 0 && r.converged ? `; this run's updates are ${r.updates / w.lower} of it` : "";
    const novikoff = r.bounds?.novikoff ?? null;
    const slack = w.status === "exact" && novikoff !== null && novikoff > 0 ? `; W*/(R/γ*)² = ${w.lower / novikoff}` : "";
    lines.push(`worst order  ${value}, ${w.nodes} states)${luck}${slack}`);
    lines.push(`  its order  ${w.order.join(" ")} (the rows updated in turn, from 0: presented so, the perceptron makes ${w.lower} updates)`);
  } else if (argv.worstOrder) {
    lines.push("worst order  none: no separator of these data is proved to separate");
  }
  if (r.bounds !== null) {
    lines.push("", "bound       value               updates/bound");
    for (const [name, value] of Object.entries(r.bounds)) {
      const ratio = value === null ? "-" : value > 0 && r.converged ? String(r.updates / value) : "-";
      // Null: beyond float64's range (nonFinite names it), or where the bound does not apply (what it needs).
      const needs = SEPARATOR_BOUNDS.find((bound) => bound.name === name)?.needs;
      const missing = r.nonFinite.includes(`bounds.${name}`) ? "- (beyond float64)" : needs !== undefined ? `- (needs ${needs})` : "-";
      lines.push(`${name.padEnd(10)}  ${(value === null ? missing : String(value)).padEnd(18)}  ${ratio}`);
    }
    lines.push("");
  }
  lines.push(`weights    ${r.weights.join(", ")}`);
  return `${lines.join("\n")}\n`;
}
