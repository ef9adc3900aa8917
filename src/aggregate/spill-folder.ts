import { constants, mkdtempSync, openSync, rmSync } from "node:fs";
import { join } from "node:path";
import { WriteError } from "../files/write-error.js";

/**
 * A private folder for the values that summaries spill (see ValueColumn), made when the first column
 * spills: `<parent>/<prefix>XXXXXX`, mode 0700, its files created exclusively with mode 0600 and never
 * through a symlink. It is removed by `dispose`, and at the latest when the process exits (Ctrl-C
 * included); one that a kill left is removed by the next command that writes the result folder.
 */
export class SpillFolder {
  #path: string | null = null;
  #files = 0;
  readonly #onExit = () => this.dispose();

  constructor(
    readonly parent: string,
    readonly prefix: string,
  ) {}

  /** Creates a new spill file, open for reading and writing; returns its descriptor and path. */
  create(): { fd: number; path: string } {
    if (this.#path === null) {
      try {
        this.#path = mkdtempSync(join(this.parent, this.prefix));
      } catch (error) {
        throw WriteError.of(join(this.parent, `${this.prefix}*`), "create", error);
      }
      process.on("exit", this.#onExit);
    }
    const path = join(this.#path, `${this.#files++}.f64`);
    try {
      const fd = openSync(path, constants.O_RDWR | constants.O_CREAT | constants.O_EXCL | constants.O_NOFOLLOW, 0o600);
      return { fd, path };
    } catch (error) {
      throw WriteError.of(path, "create", error);
    }
  }

  /** Removes the folder and every file in it (their descriptors must be closed, or be closed soon). */
  dispose(): void {
    if (this.#path === null) return;
    rmSync(this.#path, { recursive: true, force: true });
    this.#path = null;
    process.off("exit", this.#onExit);
  }
}
