#!/usr/bin/env node
/**
 * The command line: it parses, calls the library, prints, and sets the exit code. Nothing else.
 * Exit codes: 0 ok; 1 a run failed or violated a bound, compare found a regression, or the machine refused
 * (a full disk); 2 a usage or input mistake; 3 an internal error of the tool; 130 interrupted.
 */
import yargs from "yargs";
import { hideBin } from "yargs/helpers";
import { InputError } from "../vocabulary/input-error.js";
import { wordOptionsAsFlags } from "../vocabulary/option-words.js";
import { WriteError } from "../files/write-error.js";
import { NumericalRangeError } from "../perceptron/perceptron.js";
import { checkKernel } from "./check-kernel.js";
import { EXIT, UsageError } from "./cli-error.js";
import { DEFAULT_EXPERIMENT } from "./shared-options.js";
import { toolVersion } from "../runner/tool-info.js";

/**
 * Each command's module, imported when that command is given (its builder, for its options and --help,
 * then its handler): start-up loads what one command needs, not every command's libraries (compare's
 * statistics, merge's Parquet, the Slurm scripts…). `--version` and the command list load none.
 */
const runCommand = () => import("./run-command.js");
const fitCommand = () => import("./fit-command.js");
const datasetCommand = () => import("./dataset-command.js");
const mergeCommand = () => import("./merge-command.js");
const slurmCommand = () => import("./slurm-command.js");
const compareCommand = () => import("./compare-command.js");
const reportCommand = () => import("./report-command.js");
const rerunCommand = () => import("./rerun-command.js");

async function main(args: string[]): Promise<number> {
  wordOptionsAsFlags();
  // A file-size limit (ulimit -f) kills a process that writes past it with SIGXFSZ, without a word and
  // mid-write. Caught, the write fails instead (EFBIG), and the command says so like any refused write,
  // keeping what was whole.
  process.on("SIGXFSZ", () => {});
  let exitCode: number = EXIT.ok;
  const debug = args.includes("--debug");
  let given: string[];
  try {
    given = attachDashedValues(standardInputArgument(args));
  } catch (error) {
    return reportError(error, debug);
  }
  const cli = yargs(given)
    .scriptName("perceptron-lab")
    .usage("$0 <command> [options]\n\nHow the perceptron converges, against what theory promises.")
    .command("run [experiment]", "Run an experiment's sweep and write its result tables", async (y) => (await runCommand()).runBuilder(y), async (argv) => {
      exitCode = await (await runCommand()).runHandler(argv as never);
    })
    .command("fit", "Run the perceptron once on a CSV data set", async (y) => (await fitCommand()).fitBuilder(y), async (argv) => {
      exitCode = await (await fitCommand()).fitHandler(argv as never);
    })
    .command("dataset <experiment>", "Write the exact data set of one run as CSV", async (y) => (await datasetCommand()).datasetBuilder(y), async (argv) => {
      exitCode = (await datasetCommand()).datasetHandler(argv as never);
    })
    .command("merge <out> [shards..]", "Join the shard folders of one sweep into one result folder", async (y) => (await mergeCommand()).mergeBuilder(y), async (argv) => {
      exitCode = await (await mergeCommand()).mergeHandler(argv as never);
    })
    .command("slurm <experiment>", "Write a Slurm job: an array of the experiment's shards, and their merge", async (y) => (await slurmCommand()).slurmBuilder(y), async (argv) => {
      exitCode = (await slurmCommand()).slurmHandler(argv as never);
    })
    .command("check <work>", "List the shards of a Slurm job that are not complete, with the commands that run them again", async (y) => (await slurmCommand()).checkBuilder(y), async (argv) => {
      exitCode = (await slurmCommand()).checkHandler(argv as never);
    })
    .command("compare <baseline> <current>", "Compare two result folders point by point, for CI regression checks", async (y) => (await compareCommand()).compareBuilder(y), async (argv) => {
      exitCode = (await compareCommand()).compareHandler(argv as never);
    })
    .command("report <folder>", "Write report.html (plots and the summary table), report.md and plots/*.svg", async (y) => (await reportCommand()).reportBuilder(y), async (argv) => {
      exitCode = await (await reportCommand()).reportHandler(argv as never);
    })
    .command("rerun <folder>", "Run a result folder's experiment again from its manifest and compare the tables", async (y) => (await rerunCommand()).rerunBuilder(y), async (argv) => {
      exitCode = await (await rerunCommand()).rerunHandler(argv as never);
    })
    .option("debug", { type: "boolean", describe: "Show the stack trace of an error", default: false })
    .parserConfiguration({ "populate--": true })
    .middleware((argv) => checkKernel(String(argv._[0])))
    // yargs hands a middleware its instance too (not in its types): the options known once the command's builder ran.
    .middleware(((_argv: unknown, parser: { getOptions(): ParserOptions }) => refuseBareValueFlags(given, parser.getOptions())) as never)
    .middleware(argumentsAfterDashes)
    .epilogue(
      "Exit codes: 0 ok; 1 a run failed or violated a bound, compare found a regression, or the machine refused a write; 2 a usage or input mistake; 3 an internal error of the tool; 130 interrupted.\n" +
        "Environment: PERCEPTRON_LAB_KERNEL=wasm (default, the WebAssembly SIMD kernel) or typescript (the reference); both give identical results.",
    )
    .demandCommand(1, "Name a command: run, fit, dataset, merge, slurm, check, compare, report or rerun")
    .strict()
    .recommendCommands()
    .help()
    .alias("help", "h")
    // --help and --version return here rather than end the process: an early exit 0 is refused (see below).
    .exitProcess(false)
    // Its own version: yargs' default looks for the package.json nearest the working folder, a user's project's.
    .version(toolVersion().version)
    .wrap(Math.min(110, process.stdout.columns ?? 110))
    .fail((message, error) => {
      if (error) throw error;
      // A value outside an option's choices, in the words of the tool's other flag errors.
      const choice = /^Invalid values:\s*Argument: ([^,]+), Given: (.*), Choices: (.*)$/s.exec(message.trim());
      if (choice) {
        const given = choice[2]!.replace(/^"(.*)"$/, "$1");
        const choices = choice[3]!.split(/,\s*/).map((one) => one.replace(/^"(.*)"$/, "$1"));
        throw new UsageError(`--${choice[1]} ${given}: must be one of ${choices.join(", ")}`);
      }
      // yargs words some refusals on several lines ("Invalid values:\n  Argument: …"): one line, all of it.
      throw new UsageError(message.replace(/:\s*\n\s*/g, ": ").replace(/\s*\n\s*/g, "; "));
    });
  skipHelpCache(cli);
  try {
    await cli.parseAsync();
    return exitCode;
  } catch (error) {
    return reportError(error, debug);
  }
}

/**
 * yargs renders a command's whole help text as its handler starts (its usage instance's
 * `cacheHelpMessage`), to show it should the handler fail later; `.fail` above never shows help, and
 * `--help` renders its own, so that text is never read. It cost ~50–130 ms of the main thread on every
 * command (string widths, wrapping; cpu profiles of `run`), while a sweep's threads started. The Angular
 * CLI skips it the same way (angular/angular-cli#34087). Without the internal method (another yargs),
 * nothing changes.
 */
function skipHelpCache(cli: object): void {
  const internal = (cli as { getInternalMethods?: () => { getUsageInstance?: () => { cacheHelpMessage?: () => void } } }).getInternalMethods?.();
  const usage = internal?.getUsageInstance?.();
  if (typeof usage?.cacheHelpMessage === "function") usage.cacheHelpMessage = () => {};
}

/**
 * What follows `--` is taken as it is: for run, the experiment file (`run -- -x.json`, a file whose name
 * starts with a dash); anywhere else it is refused, not ignored.
 */
function argumentsAfterDashes(argv: { _: (string | number)[]; "--"?: (string | number)[]; experiment?: unknown }): void {
  const rest = (argv["--"] ?? []).map(String);
  delete argv["--"];
  if (rest.length === 0) return;
  if (argv._[0] === "run" && rest.length === 1 && argv._.length === 1 && (argv.experiment === undefined || argv.experiment === DEFAULT_EXPERIMENT)) {
    argv.experiment = rest[0];
    return;
  }
  throw new UsageError(`unexpected argument${rest.length > 1 ? "s" : ""} after --: ${rest.join(" ")}`);
}

/** What refuseBareValueFlags reads of yargs' options (the command's own included, once its builder ran). */
interface ParserOptions {
  readonly string: readonly string[];
  readonly number: readonly string[];
  readonly choices: Readonly<Record<string, unknown>>;
}

/**
 * A flag that takes a value given without one, last or before another flag (`--threads --quiet`, or
 * `--alpha $ALPHA` with the variable unset), is refused: yargs would read it as the flag's default, or as
 * no flag at all, in silence, and a CI gate would run with a level or rules nobody asked for.
 */
function refuseBareValueFlags(args: readonly string[], options: ParserOptions): void {
  const takesValue = new Set([...options.string, ...options.number, ...Object.keys(options.choices)]);
  const end = flagsEnd(args);
  for (let i = 0; i < end; i++) {
    const flag = /^--([^=]+)$/.exec(args[i]!)?.[1];
    if (flag === undefined || !takesValue.has(flag)) continue;
    // A value may start with a dash (a negative number, `-` for standard input), not with a dash and a letter.
    if (i + 1 >= end || /^--?[A-Za-z]/.test(args[i + 1]!)) {
      throw new UsageError(`--${flag} needs a value (an unset variable in a script?)`);
    }
  }
}

/**
 * `--init -0.5,1,0` is the flag and its value: yargs reads a token that starts with a dash as a flag
 * unless it is a plain number ("Unknown argument: 0"), so a token that starts with a dash and a digit
 * (or `-.` and a digit) right after a `--flag` is attached to it (`--init=-0.5,1,0`), up to `--`.
 */
function attachDashedValues(args: string[]): string[] {
  const end = flagsEnd(args);
  const out: string[] = [];
  for (let i = 0; i < args.length; i++) {
    const arg = args[i]!;
    const next = args[i + 1];
    if (i + 1 < end && /^--[^=]+$/.test(arg) && next !== undefined && /^-\.?\d/.test(next)) {
      out.push(`${arg}=${next}`);
      i++;
    } else {
      out.push(arg);
    }
  }
  return out;
}

/** Where the flags end: at `--` (what follows is taken as it is, see argumentsAfterDashes), else the end. */
function flagsEnd(args: readonly string[]): number {
  const dashes = args.indexOf("--");
  return dashes === -1 ? args.length : dashes;
}

/** run's options that take a value: a `-` right after one of them is that value, not the experiment. */
const RUN_VALUE_FLAGS = new Set(["--threads", "--out", "--run-timeout", "--worker-memory", "--shard", "--set"]);

/**
 * `run -` reads the experiment from standard input. yargs drops a lone `-` (it would then run the
 * default experiment in silence), so it is passed on as `-- -`, which argumentsAfterDashes hands to run.
 */
function standardInputArgument(args: string[]): string[] {
  if (args[0] !== "run") return args;
  const end = flagsEnd(args);
  const dash = args.findIndex((arg, i) => i < end && arg === "-" && !RUN_VALUE_FLAGS.has(args[i - 1]!));
  if (dash === -1) return args;
  if (end < args.length) throw new UsageError("run: - (standard input) and an experiment after --: give one experiment");
  return [...args.slice(0, dash), ...args.slice(dash + 1), "--", "-"];
}

function reportError(thrown: unknown, debug: boolean): number {
  // yargs' own refusals, a flag given without its value among them ("Not enough arguments following:
  // set"), come as a YError: a usage mistake like the rest, not a failure of the tool.
  const error = thrown instanceof Error && thrown.name === "YError" ? new UsageError(thrown.message) : thrown;
  const usage = error instanceof InputError || error instanceof UsageError;
  // A data set beyond float64's range, or a disk that refused a write, is said plainly: not a bug of the tool.
  const expected = usage || error instanceof NumericalRangeError || error instanceof WriteError;
  const message = error instanceof Error ? error.message : String(error);
  process.stderr.write(`Error: ${message.split("\n")[0]}\n`);
  if (error instanceof UsageError) process.stderr.write("Run with --help for the options.\n");
  if (debug && error instanceof Error && error.stack) process.stderr.write(`${error.stack}\n`);
  else if (!expected) process.stderr.write("(run again with --debug for the stack trace)\n");
  // 1 for what the machine or the data refused (a full disk, a data set beyond float64), 3 for a fault of the tool.
  return usage ? EXIT.usage : expected ? EXIT.failed : EXIT.internal;
}

/**
 * A process that ends with exit code 0 before the command finished (process.exit(0) from a plug-in's code,
 * or any code the command ran) wrote nothing it promised: a CI job would read success. It exits 3 instead,
 * saying so. A command that finished leaves its own exit code as it is.
 */
let finished = false;
process.on("exit", (code) => {
  if (finished || code !== 0) return;
  process.stderr.write("Error: the process was ended (process.exit) before the command finished, by a plug-in's code or another module's: nothing it was to write can be trusted\n");
  process.exitCode = EXIT.internal;
});
process.exitCode = await main(hideBin(process.argv));
finished = true;
