import { createRequire } from "node:module";

/** cli-progress (CommonJS), required when a bar is drawn: --quiet, CI and pipes never load it. */
const cliProgress = (): typeof import("cli-progress") => createRequire(import.meta.url)("cli-progress") as typeof import("cli-progress");

export interface Progress {
  update(done: number, total: number): void;
  stop(): void;
}

export interface ProgressOptions {
  readonly quiet: boolean;
  /** stderr is a terminal and not CI: a live bar; otherwise plain lines. */
  readonly interactive: boolean;
  readonly write?: (text: string) => void;
  readonly now?: () => number;
  /** Seconds between plain lines. */
  readonly every?: number;
}

/** stderr is a terminal and CI is not set: the bar; otherwise plain lines (CI logs, pipes). */
export function isInteractive(env: NodeJS.ProcessEnv = process.env): boolean {
  return Boolean(process.stderr.isTTY) && !env.CI;
}

/**
 * Progress of a sweep on stderr (stdout stays for results): a bar with runs done, runs per second and
 * ETA on a terminal; a plain line every few seconds in CI or a pipe; nothing with --quiet.
 */
export function createProgress(options: ProgressOptions): Progress {
  if (options.quiet) return { update: () => {}, stop: () => {} };
  if (options.interactive) {
    const { SingleBar, Presets } = cliProgress();
    const bar = new SingleBar(
      { format: "{bar} {value}/{total} runs | {rate} runs/s | ETA {eta_formatted}", stream: process.stderr, hideCursor: true, etaBuffer: 50 },
      Presets.shades_classic,
    );
    const started = Date.now();
    let running = false;
    return {
      update(done, total) {
        if (!running) {
          bar.start(total, 0, { rate: "-" });
          running = true;
        }
        const seconds = (Date.now() - started) / 1000;
        bar.update(done, { rate: seconds > 0 ? Math.round(done / seconds) : "-" });
      },
      stop: () => {
        if (running) bar.stop();
      },
    };
  }
  const write = options.write ?? ((text: string) => process.stderr.write(text));
  const now = options.now ?? Date.now;
  const every = (options.every ?? 5) * 1000;
  const started = now();
  let last = started;
  return {
    update(done, total) {
      const time = now();
      if (time - last < every || done >= total) return;
      last = time;
      write(`${progressLine(done, total, (time - started) / 1000)}\n`);
    },
    stop: () => {},
  };
}

/** `480/1200 runs (40%), 310 runs/s, ETA 2.3 s` */
export function progressLine(done: number, total: number, seconds: number): string {
  const rate = seconds > 0 ? done / seconds : 0;
  const eta = rate > 0 ? (total - done) / rate : Infinity;
  const etaText = Number.isFinite(eta) ? `${eta < 100 ? eta.toFixed(1) : Math.round(eta)} s` : "unknown";
  return `${done}/${total} runs (${Math.floor((100 * done) / total)}%), ${rate < 10 ? rate.toFixed(1) : Math.round(rate)} runs/s, ETA ${etaText}`;
}
