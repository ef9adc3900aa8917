import { describe, expect, it } from "vitest";
import { openOutput, OutputRing, RING_SLOTS, type RingOutput } from "../../src/pool/output-ring.js";

const bytes = (text: string) => new TextEncoder().encode(text);
const output = (k: number) => ({ lines: { jsonl: bytes(`{"run":${k}}\n`), csv: bytes(`${k}\n`) }, digest: { count: 1, values: Float64Array.of(k, k / 2), heads: [], notable: [] } });

describe("OutputRing", () => {
  it("fills the lowest free slot, so that slots past those in use are never written (never resident)", () => {
    const ring = new OutputRing();
    const packed = [0, 1, 2].map((k) => ring.pack(output(k).lines, output(k).digest) as RingOutput);
    expect(packed.map((message) => message.slot)).toEqual([0, 1, 2]);
    const opened = packed.map(openOutput);
    opened[1]!.release!();
    opened[0]!.release!();
    // Slots 0 and 1 are free again: the next two batches take them, not slots 3 and 4.
    const next = [3, 4].map((k) => ring.pack(output(k).lines, output(k).digest) as RingOutput);
    expect(next.map((message) => message.slot)).toEqual([0, 1]);
    expect(new TextDecoder().decode(openOutput(next[1]!).lines.jsonl)).toBe('{"run":4}\n');
    expect(Array.from(openOutput(next[0]!).digest.values)).toEqual([3, 1.5]);
    // Slot 2 still holds its batch, untouched by the two after it.
    expect(new TextDecoder().decode(opened[2]!.lines.csv)).toBe("2\n");
  });

  it("sends a batch in its message when every slot is held", () => {
    const ring = new OutputRing();
    for (let k = 0; k < RING_SLOTS; k++) expect("ring" in ring.pack(output(k).lines, output(k).digest)).toBe(true);
    const last = ring.pack(output(99).lines, output(99).digest);
    expect("ring" in last).toBe(false);
    expect(new TextDecoder().decode((last as { lines: { csv: Uint8Array } }).lines.csv)).toBe("99\n");
  });
});
