import type { PointHead } from "../aggregate/run-digest.js";
import type { RunRow } from "../run/run-types.js";
import type { BatchOutput } from "./batch-output.js";

/*
 * A thread's batch outputs handed over through memory it shares with the other threads, instead of copied
 * into each message. A message that carries a batch's bytes arrives as new ArrayBuffers outside the
 * receiver's heap, ~1.4 KB of table lines and digest a small run: V8 counts that memory, and on a sweep of
 * 100 000 small runs it set off a full garbage collection of the coordinator every half second (~25 in
 * all; --trace-gc). Through a ring the message carries the ring and where the batch is in it, and the
 * receiver reads it in place (3-4 full collections on the same sweep). The ring itself travels with every
 * message: V8 does not count shared memory against an isolate.
 *
 * A ring is one SharedArrayBuffer per thread (worker or exporter, see run-pool.ts): RING_SLOTS states
 * (Int32: FREE or FILLED), then RING_SLOTS slots of RING_SLOT_BYTES (SlotParts). A thread fills a FREE
 * slot and marks it FILLED before posting its message; whoever takes the parts marks it FREE (release): an
 * exporter once it has formatted a worker's rows, the coordinator once it has written an exporter's lines
 * and taken the digest. A batch that finds no FREE slot, or does not fit in one, goes in its message as
 * before: the ring only ever saves copies, it never holds a batch back. Slots are virtual memory until
 * written: a slot holds what its largest batch wrote (a batch of small runs, ~120 KB).
 */
export const RING_SLOTS = 8;
export const RING_SLOT_BYTES = 1 << 20;
/** The states, padded to keep the slots' float64 values aligned. */
const HEADER_BYTES = 64;
const FREE = 0;
const FILLED = 1;

/**
 * What a slot holds of a batch, in this order: its digest's values (float64), its rows as numbers
 * (float64; binary-rows.ts), its runs.jsonl and runs.csv bytes, its journal block (journal-blocks.ts). A
 * worker fills the rows, an exporter (or a worker that formats its own rows) the other four (see
 * PostedOutput); a part not filled is empty.
 */
export interface SlotParts {
  readonly values: Float64Array;
  readonly rows: Float64Array;
  readonly jsonl: Uint8Array;
  readonly csv: Uint8Array;
  readonly journal: Uint8Array;
}

/** What travels beside the parts, in the message: the digest's few objects, and the texts of the rows' numbers. */
export interface OutputHead {
  readonly count: number;
  readonly heads: PointHead[];
  readonly notable: RunRow[];
  /** The texts the rows' text columns index (BinaryRows.texts). */
  readonly texts: readonly string[];
}

/** A batch's output in a slot of its thread's ring: where it is, and how many of each part. */
export interface RingOutput extends OutputHead {
  readonly ring: SharedArrayBuffer;
  readonly slot: number;
  readonly values: number;
  readonly rows: number;
  readonly jsonl: number;
  readonly csv: number;
  readonly journal: number;
}

/** A batch's output that did not find a free slot large enough: its parts as copies of their own. */
export interface PlainOutput extends OutputHead {
  readonly parts: SlotParts;
}

/** What a thread posts of a batch: in its ring, or plain. */
export type PostedOutput = RingOutput | PlainOutput;

export const NO_FLOATS = new Float64Array(0);
export const NO_BYTES = new Uint8Array(0);

/** A thread's ring: it packs the thread's batch outputs. */
export class OutputRing {
  readonly #memory = new SharedArrayBuffer(HEADER_BYTES + RING_SLOTS * RING_SLOT_BYTES);
  readonly #states = new Int32Array(this.#memory, 0, RING_SLOTS);
  readonly #bytes = new Uint8Array(this.#memory);
  readonly #floats = new Float64Array(this.#memory);

  /**
   * A batch's output for its message: in a free slot of the ring when one is free and large enough (the
   * parts may be views of buffers the caller reuses, or of another ring's slot: they are copied), else
   * the parts copied.
   */
  pack(parts: SlotParts, head: OutputHead): PostedOutput {
    const floatBytes = (parts.values.length + parts.rows.length) * 8;
    if (floatBytes + parts.jsonl.length + parts.csv.length + parts.journal.length <= RING_SLOT_BYTES) {
      // The lowest free slot: the slots past those a thread keeps busy are never written, so never
      // resident (looking from the slot after the last filled, as before, wrote all of them in turn).
      for (let slot = 0; slot < RING_SLOTS; slot++) {
        if (Atomics.load(this.#states, slot) !== FREE) continue;
        const at = HEADER_BYTES + slot * RING_SLOT_BYTES;
        this.#floats.set(parts.values, at / 8);
        this.#floats.set(parts.rows, at / 8 + parts.values.length);
        this.#bytes.set(parts.jsonl, at + floatBytes);
        this.#bytes.set(parts.csv, at + floatBytes + parts.jsonl.length);
        this.#bytes.set(parts.journal, at + floatBytes + parts.jsonl.length + parts.csv.length);
        Atomics.store(this.#states, slot, FILLED);
        const { count, heads, notable, texts } = head;
        return { ring: this.#memory, slot, values: parts.values.length, rows: parts.rows.length, jsonl: parts.jsonl.length, csv: parts.csv.length, journal: parts.journal.length, count, heads, notable, texts };
      }
    }
    return { ...head, parts: { values: parts.values.slice(), rows: parts.rows.slice(), jsonl: parts.jsonl.slice(), csv: parts.csv.slice(), journal: parts.journal.slice() } };
  }
}

/** A posted output opened where it arrives: its parts (views of the slot, for a ring's) and a release. */
export interface OpenedOutput extends OutputHead {
  readonly parts: SlotParts;
  /** Frees a ring's slot for its thread's next batches (nothing for a plain output): once, when the parts are taken; they are not to be read after. */
  readonly release: () => void;
}

export function openPosted(message: PostedOutput): OpenedOutput {
  const { count, heads, notable, texts } = message;
  if (!("ring" in message)) return { count, heads, notable, texts, parts: message.parts, release: () => {} };
  const { ring, slot } = message;
  const at = HEADER_BYTES + slot * RING_SLOT_BYTES;
  const rowsAt = at + message.values * 8;
  const jsonlAt = rowsAt + message.rows * 8;
  const csvAt = jsonlAt + message.jsonl;
  const journalAt = csvAt + message.csv;
  let released = false;
  return {
    count,
    heads,
    notable,
    texts,
    parts: {
      values: new Float64Array(ring, at, message.values),
      rows: new Float64Array(ring, rowsAt, message.rows),
      jsonl: new Uint8Array(ring, jsonlAt, message.jsonl),
      csv: new Uint8Array(ring, csvAt, message.csv),
      journal: new Uint8Array(ring, journalAt, message.journal),
    },
    release: () => {
      if (released) return;
      released = true;
      Atomics.store(new Int32Array(ring, 0, RING_SLOTS), slot, FREE);
    },
  };
}

/** A formatted output (an exporter's) as the coordinator's BatchOutput: views of the slot, with its release. */
export function openOutput(message: PostedOutput): BatchOutput {
  const { count, heads, notable, parts, texts, release } = openPosted(message);
  const rows = parts.rows.length === 0 ? [] : [{ count, values: parts.rows, texts }];
  return { lines: { jsonl: parts.jsonl, csv: parts.csv }, journal: parts.journal, rows, digest: { count, values: parts.values, heads, notable }, release };
}
