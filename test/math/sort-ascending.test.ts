import seedrandom from "seedrandom";
import { describe, expect, it, vi } from "vitest";
import { sortAscending } from "../../src/math/sort-ascending.js";

/** Laws of values that exercise each path: spread out, clustered, tied, wide-ranging, signed, special. */
const LAWS: Record<string, (random: () => number, i: number) => number> = {
  margins: (random) => 0.1 + 0.9 * random(),
  skewed: (random) => random() ** 12,
  ties: (random) => [1, 2, 3][Math.floor(random() * 3)]!,
  // Every value but one in the first bucket: the built-in sort takes that bucket.
  "one outlier": (random, i) => (i === 0 ? 1e6 : 1 + random() * 1e-9),
  "twenty decades": (random) => 10 ** (20 * random() - 10),
  signed: (random) => random() - 0.5,
  subnormal: (random) => random() * 1e-310 + 5e-324,
  "huge span": (random) => (random() < 0.5 ? -1 : 1) * Number.MAX_VALUE * random(),
  "with zeros": (random) => (random() < 0.2 ? (random() < 0.5 ? -0 : 0) : random() - 0.5),
  "with NaN and infinities": (random) => [NaN, Infinity, -Infinity, random()][Math.floor(random() * 4)]!,
  equal: () => 0.25,
};

describe("sortAscending", () => {
  it.each(Object.keys(LAWS))("sorts values[0..count) exactly as Float64Array.prototype.sort does (%s), leaving the rest", (law) => {
    const random = seedrandom(`sort-ascending/${law}`);
    const draw = LAWS[law]!;
    for (let trial = 0; trial < 300; trial++) {
      const count = trial < 30 ? trial : Math.floor(random() * (trial % 7 === 0 ? 3000 : 300));
      const values = Float64Array.from({ length: count + 5 }, (_, i) => draw(random, i));
      const expected = values.slice();
      expected.subarray(0, count).sort();
      sortAscending(values, count);
      // Object.is tells −0 from +0 and matches NaN with NaN: bit for bit, as the bounds need.
      const differs = Array.from(values).findIndex((value, i) => !Object.is(value, expected[i]));
      expect(differs, `${law}, count ${count}`).toBe(-1);
    }
  });

  it("grows its scratch arrays together, from their first size (256 values) on", async () => {
    // A fresh copy of the module, whose scratch has never grown: each count just past its sizes.
    vi.resetModules();
    const fresh = (await import("../../src/math/sort-ascending.js")).sortAscending;
    const random = seedrandom("grow");
    for (const count of [255, 256, 257, 258, 515, 516, 517]) {
      const values = Float64Array.from({ length: count }, () => 0.1 + random());
      const expected = values.slice().sort();
      fresh(values, count);
      expect(Array.from(values), `count ${count}`).toEqual(Array.from(expected));
    }
  });
});
