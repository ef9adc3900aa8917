import type { PointHead, RunDigest } from "../aggregate/run-digest.js";
import type { RunLineBytes } from "../export/run-lines.js";
import type { RunRow } from "../run/run-types.js";
import type { BatchOutput } from "./batch-output.js";

/*
 * A worker's batch outputs handed over through memory the worker shares with the coordinator, instead of
 * copied into each message. A message that carries a batch's bytes arrives as new ArrayBuffers outside
 * the coordinator's heap, ~1.4 KB of table lines and digest a small run: V8 counts that memory, and on a
 * sweep of 100 000 small runs it set off a full garbage collection of the coordinator every half second
 * (~25 in all; --trace-gc). Through a ring the message carries the ring and where the batch is in it, and
 * the coordinator reads it in place (3-4 full collections on the same sweep). The ring itself travels with
 * every message: V8 does not count shared memory against an isolate.
 *
 * A ring is one SharedArrayBuffer per worker thread: RING_SLOTS states (Int32: FREE or FILLED), then
 * RING_SLOTS slots of RING_SLOT_BYTES, each a batch's digest values (float64), then its runs.jsonl bytes,
 * then its runs.csv bytes. The worker fills a FREE slot and marks it FILLED before posting the message; the
 * coordinator marks it FREE once it has written the lines and taken the digest (release). A batch that
 * finds no FREE slot, or does not fit in one, goes in its message as before: the ring only ever saves
 * copies, it never holds a batch back. Slots are virtual memory until written: a slot holds what its
 * largest batch wrote (a batch of small runs, ~120 KB).
 */
export const RING_SLOTS = 8;
export const RING_SLOT_BYTES = 1 << 20;
/** The states, padded to keep the slots' float64 values aligned. */
const HEADER_BYTES = 64;
const FREE = 0;
const FILLED = 1;

/** A batch's output in a slot of its worker's ring (what the worker posts instead of a BatchOutput). */
export interface RingOutput {
  readonly ring: SharedArrayBuffer;
  readonly slot: number;
  /** How many digest values, then runs.jsonl and runs.csv bytes, the slot holds. */
  readonly values: number;
  readonly jsonl: number;
  readonly csv: number;
  readonly count: number;
  readonly heads: PointHead[];
  readonly notable: RunRow[];
}

/** A worker thread's ring: it packs the thread's batch outputs. */
export class OutputRing {
  readonly #memory = new SharedArrayBuffer(HEADER_BYTES + RING_SLOTS * RING_SLOT_BYTES);
  readonly #states = new Int32Array(this.#memory, 0, RING_SLOTS);
  readonly #bytes = new Uint8Array(this.#memory);
  readonly #values = new Float64Array(this.#memory);

  /**
   * A batch's output for its message: in a free slot of the ring when one is free and large enough (the
   * lines may be views of buffers the caller reuses: they are copied), else the lines copied and the digest
   * as they are.
   */
  pack(lines: RunLineBytes, digest: RunDigest): BatchOutput | RingOutput {
    const valueBytes = digest.values.length * 8;
    if (valueBytes + lines.jsonl.length + lines.csv.length <= RING_SLOT_BYTES) {
      // The lowest free slot: the slots past those a thread keeps busy are never written, so never
      // resident (looking from the slot after the last filled, as before, wrote all of them in turn).
      for (let slot = 0; slot < RING_SLOTS; slot++) {
        if (Atomics.load(this.#states, slot) !== FREE) continue;
        const at = HEADER_BYTES + slot * RING_SLOT_BYTES;
        this.#values.set(digest.values, at / 8);
        this.#bytes.set(lines.jsonl, at + valueBytes);
        this.#bytes.set(lines.csv, at + valueBytes + lines.jsonl.length);
        Atomics.store(this.#states, slot, FILLED);
        const { count, heads, notable } = digest;
        return { ring: this.#memory, slot, values: digest.values.length, jsonl: lines.jsonl.length, csv: lines.csv.length, count, heads, notable };
      }
    }
    return { lines: { jsonl: lines.jsonl.slice(), csv: lines.csv.slice() }, digest };
  }
}

/**
 * A worker's message as a BatchOutput, on the coordinator's side: a plain one as it is; a ring's as views
 * of its slot, with a `release` that frees the slot (call it once the lines are written and the digest taken).
 */
export function openOutput(message: BatchOutput | RingOutput): BatchOutput {
  if (!("ring" in message)) return message;
  const { ring, slot, count, heads, notable } = message;
  const at = HEADER_BYTES + slot * RING_SLOT_BYTES;
  const jsonlAt = at + message.values * 8;
  const csvAt = jsonlAt + message.jsonl;
  let released = false;
  return {
    lines: { jsonl: new Uint8Array(ring, jsonlAt, message.jsonl), csv: new Uint8Array(ring, csvAt, message.csv) },
    digest: { count, values: new Float64Array(ring, at, message.values), heads, notable },
    release: () => {
      if (released) return;
      released = true;
      Atomics.store(new Int32Array(ring, 0, RING_SLOTS), slot, FREE);
    },
  };
}
