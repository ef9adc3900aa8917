import { basename, dirname, join } from "node:path";
import { closeFile, closeQuietly, createFile, removePath, renameDurably, syncFile, writeAll } from "./checked-fs.js";

/** The temporary name of a file being replaced, in the same folder (a dot file: listings hide it). */
export function temporaryName(path: string): string {
  return join(dirname(path), `.${basename(path)}.tmp`);
}

/** The file a temporary name (see temporaryName) stands for, or null when the name is not one. */
export function replacedBy(temporary: string): string | null {
  const name = basename(temporary);
  return name.startsWith(".") && name.endsWith(".tmp") && name.length > 5 ? join(dirname(temporary), name.slice(1, -4)) : null;
}

/**
 * Replaces a file whole: the new text goes to a temporary file in the same folder (created exclusively,
 * never through a symlink), is synced, and renamed over the old one; the folder is synced. A kill or a
 * failure at any instant leaves either the old file or the new one, never a part of either. A temporary
 * file a kill left behind is removed first (the result folder's lock says no one else writes it).
 */
export function writeFileAtomic(path: string, text: string | Uint8Array): void {
  writeFileAtomicWith(path, (append) => append(text));
}

/**
 * writeFileAtomic for a file written in parts: `write` is handed an `append` that writes each part to the
 * temporary file (through the checked writes), so that a large file never needs to be whole in memory.
 */
export function writeFileAtomicWith(path: string, write: (append: (part: string | Uint8Array) => void) => void): void {
  const file = new AtomicFileWriter(path);
  try {
    write((part) => file.append(part));
  } catch (error) {
    file.abandon();
    throw error;
  }
  file.commit();
}

/**
 * The protocol of writeFileAtomic, for a writer that appends over time (a merge, between awaits): the
 * temporary file is created exclusively at once; commit syncs, closes and renames it over `path`; abandon
 * closes it and leaves it for the folder's clean-up.
 */
export class AtomicFileWriter {
  readonly #temporary: string;
  readonly #fd: number;

  constructor(readonly path: string) {
    this.#temporary = temporaryName(path);
    removePath(this.#temporary);
    this.#fd = createFile(this.#temporary, { exclusive: true });
  }

  append(part: string | Uint8Array): void {
    writeAll(this.#fd, this.#temporary, part);
  }

  commit(): void {
    try {
      syncFile(this.#fd, this.#temporary);
    } catch (error) {
      closeQuietly(this.#fd);
      throw error;
    }
    closeFile(this.#fd, this.#temporary);
    renameDurably(this.#temporary, this.path);
  }

  abandon(): void {
    closeQuietly(this.#fd);
  }
}
