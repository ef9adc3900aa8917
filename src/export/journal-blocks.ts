import { createHash } from "node:crypto";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import type { BinaryRows } from "./binary-rows.js";

/*
 * The sweep's journal (runs.journal): the durable record of its runs as the workers produce them, rows as
 * numbers with their texts by index (binary-rows.ts), appended by the coordinator in checked blocks. Resume,
 * merge, compare, check and rerun read it (or, once a folder is complete, the runs.parquet written from it);
 * the text tables are views formatted from the same rows and never read back.
 *
 * Layout, little-endian:
 *   file header (16 bytes): "PLJOURN1", the row width (u32), 0 (u32)
 *   a block: a header of 24 bytes, a check of 16, then the stored payload
 *     header: BLOCK_MAGIC, rows, bytes of the rows' numbers, bytes of the texts, stored bytes, flags (u32 each)
 *     check: the first 16 bytes of SHA-256 over the header and the stored payload
 *     payload: the rows' numbers (float64) column by column (a column's value in every row of the block, then
 *     the next column's), then their texts as a JSON array in UTF-8; stored deflated (raw) when flags has
 *     DEFLATED. Column by column, a point's parameters, the bounds not computed (NaN) and the small whole
 *     numbers lie side by side, and deflate stores a small run in ~1/3 of the bytes it takes row by row.
 *
 * A kill can tear only the last block (the coordinator appends whole blocks, in order); a reader drops a
 * block that ends past the file's end. A whole block whose check does not match was changed after it was
 * written, and is refused by its readers, as a runs.jsonl record whose check did not match was.
 */
export const JOURNAL_MAGIC = "PLJOURN1";
export const JOURNAL_HEADER_BYTES = 16;
export const BLOCK_MAGIC = 0x4b4c4250; // "PBLK"
export const BLOCK_HEADER_BYTES = 24;
export const BLOCK_CHECK_BYTES = 16;
export const DEFLATED = 1;
/**
 * The zlib level of the blocks: its fastest. Column by column, a small run's 0.65 KB of numbers deflate to ~35
 * bytes in blocks of 256 runs (61 row by row), so that a sweep's journal and its growing runs.parquet take
 * less than twice the final runs.parquet (1.87× measured on 10⁶ small runs; docs/outputs.md, "The record and
 * its views").
 */
const LEVEL = 1;

/** The journal's first bytes, for rows of `width` numbers. */
export function journalHeader(width: number): Uint8Array {
  const header = new Uint8Array(JOURNAL_HEADER_BYTES);
  header.set(Buffer.from(JOURNAL_MAGIC, "latin1"), 0);
  new DataView(header.buffer).setUint32(8, width, true);
  return header;
}

/** The row width a journal's header states, or a reason it is not a journal's header. */
export function readJournalHeader(bytes: Uint8Array): number | string {
  if (bytes.length < JOURNAL_HEADER_BYTES || Buffer.from(bytes.buffer, bytes.byteOffset, 8).toString("latin1") !== JOURNAL_MAGIC) return "does not start as a runs journal of this tool";
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength).getUint32(8, true);
}

/** Rows as one checked block, deflated (nothing for no rows). */
export function journalBlock(rows: BinaryRows, width: number, { deflate = true }: { readonly deflate?: boolean } = {}): Uint8Array {
  if (rows.count === 0) return EMPTY;
  const texts = UTF8.encode(JSON.stringify(rows.texts));
  const valueBytes = rows.count * width * 8;
  const raw = new Uint8Array(valueBytes + texts.length);
  const columns = new Float64Array(raw.buffer, 0, rows.count * width);
  for (let c = 0, at = 0; c < width; c++) for (let r = 0; r < rows.count; r++) columns[at++] = rows.values[r * width + c]!;
  raw.set(texts, valueBytes);
  const stored = deflate ? deflateRawSync(raw, { level: LEVEL }) : raw;
  const block = new Uint8Array(BLOCK_HEADER_BYTES + BLOCK_CHECK_BYTES + stored.length);
  const view = new DataView(block.buffer);
  view.setUint32(0, BLOCK_MAGIC, true);
  view.setUint32(4, rows.count, true);
  view.setUint32(8, valueBytes, true);
  view.setUint32(12, texts.length, true);
  view.setUint32(16, stored.length, true);
  view.setUint32(20, deflate ? DEFLATED : 0, true);
  block.set(stored, BLOCK_HEADER_BYTES + BLOCK_CHECK_BYTES);
  block.set(blockCheck(block.subarray(0, BLOCK_HEADER_BYTES), stored), BLOCK_HEADER_BYTES);
  return block;
}

/** What a block's header says: its rows, and the sizes to read and to expect once inflated. */
export interface BlockHead {
  readonly count: number;
  readonly valueBytes: number;
  readonly textBytes: number;
  readonly storedBytes: number;
  readonly flags: number;
}

/** A block's header (the first BLOCK_HEADER_BYTES of `bytes`), or why it is not one. */
export function readBlockHead(bytes: Uint8Array): BlockHead | string {
  const view = new DataView(bytes.buffer, bytes.byteOffset, BLOCK_HEADER_BYTES);
  if (view.getUint32(0, true) !== BLOCK_MAGIC) return "is not the start of a block";
  const head = { count: view.getUint32(4, true), valueBytes: view.getUint32(8, true), textBytes: view.getUint32(12, true), storedBytes: view.getUint32(16, true), flags: view.getUint32(20, true) };
  if ((head.flags & ~DEFLATED) !== 0 || head.count === 0) return "has a block header this tool does not write";
  return head;
}

/** The block's bytes past its header (check and payload) as rows of `width`, or why they are not what was written. */
export function openBlock(head: BlockHead, header: Uint8Array, rest: Uint8Array, width: number): BinaryRows | string {
  const stored = rest.subarray(BLOCK_CHECK_BYTES, BLOCK_CHECK_BYTES + head.storedBytes);
  const check = blockCheck(header, stored);
  for (let k = 0; k < BLOCK_CHECK_BYTES; k++) if (check[k] !== rest[k]) return "does not match its check: it was changed after it was written";
  if (head.valueBytes !== head.count * width * 8) return `holds rows of ${head.valueBytes / head.count / 8} numbers, not the ${width} of this folder's columns`;
  let raw: Uint8Array;
  try {
    raw = (head.flags & DEFLATED) !== 0 ? inflateRawSync(stored) : stored;
  } catch {
    return "cannot be inflated";
  }
  if (raw.length !== head.valueBytes + head.textBytes) return "inflates to another size than its header states";
  // Copied into an array of its own (the numbers aligned for a Float64Array, and the read buffer free again), row by row.
  const columns = new Float64Array(head.count * width);
  new Uint8Array(columns.buffer).set(raw.subarray(0, head.valueBytes));
  const values = new Float64Array(head.count * width);
  for (let c = 0, at = 0; c < width; c++) for (let r = 0; r < head.count; r++) values[r * width + c] = columns[at++]!;
  let texts: unknown;
  try {
    texts = JSON.parse(UTF8_DECODER.decode(raw.subarray(head.valueBytes)));
  } catch {
    return "has texts that are not JSON";
  }
  if (!Array.isArray(texts) || !texts.every((text) => typeof text === "string")) return "has texts that are not a list of strings";
  return { count: head.count, values, texts };
}

function blockCheck(header: Uint8Array, stored: Uint8Array): Uint8Array {
  return createHash("sha256").update(header).update(stored).digest().subarray(0, BLOCK_CHECK_BYTES);
}

const EMPTY = new Uint8Array(0);
const UTF8 = new TextEncoder();
const UTF8_DECODER = new TextDecoder();

/**
 * The rows of blocks that follow one another in `bytes` (a batch's, or a journal's after its header), block by
 * block; throws where a block is torn or not as written (the file's reader, journal-stream.ts, says where).
 */
export function blocksRows(bytes: Uint8Array, width: number): BinaryRows[] {
  const rows: BinaryRows[] = [];
  for (let at = 0; at < bytes.length; ) {
    const header = bytes.subarray(at, at + BLOCK_HEADER_BYTES);
    const head = header.length === BLOCK_HEADER_BYTES ? readBlockHead(header) : "is torn";
    if (typeof head === "string") throw new Error(`the block at byte ${at} ${head}`);
    const end = at + BLOCK_HEADER_BYTES + BLOCK_CHECK_BYTES + head.storedBytes;
    const opened = end <= bytes.length ? openBlock(head, header, bytes.subarray(at + BLOCK_HEADER_BYTES, end), width) : "is torn";
    if (typeof opened === "string") throw new Error(`the block at byte ${at} ${opened}`);
    rows.push(opened);
    at = end;
  }
  return rows;
}
