import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { dataSetCsv } from "../../src/dataset/data-csv.js";
import { parseDataCsv, readDataCsv, parseDataCsvSync } from "../../src/experiment/read-data-csv.js";
import { InputError } from "../../src/vocabulary/input-error.js";
import { generatePlanted } from "../../src/generators/planted.js";
import { createRandom } from "../../src/random/seeded-random.js";
import { temporaryFolder } from "../helpers.js";

/** Every way a data CSV can be wrong, with the exact message. */
const CATALOGUE: [string, string, string][] = [
  ["an empty file", "", 'd.csv: the file is empty; expected a header row with a "label" column and feature columns'],
  ["no label column", "a,b\n1,2\n", 'd.csv: no "label" column in the header (columns: a, b)'],
  // A first line without a comma may be any file's (a token, a password file's entry): it is not echoed.
  ["a first line that is no CSV header", "root:x:0:0:root:/root:/bin/bash\n", 'd.csv: no "label" column in the header (its first line has no comma: is it a CSV file?)'],
  ["a header of many long names", `${Array.from({ length: 14 }, (_, k) => `feature_with_a_long_name_${k}`).join(",")}\n`, `d.csv: no "label" column in the header (columns: ${Array.from({ length: 12 }, () => "feature_with_a_long_nam…").join(", ")}, … (14 in all))`],
  ["only a label column", "label\n1\n", 'd.csv: no feature column besides "label"'],
  ["a header alone", "x,label\n", "d.csv: no data rows after the header"],
  ["a duplicate column", "x,x,label\n1,2,1\n", 'd.csv: line 1: column "x" appears twice in the header'],
  ["a ragged row", "x,y,label\n1,2,1\n3,-1\n", "d.csv: line 3 has 2 fields, the header has 3"],
  ["a word for a number", "x,label\n1,1\nabc,-1\n", 'd.csv: line 3, column "x": "abc" is not a number'],
  ["NaN", "x,label\nNaN,1\n", 'd.csv: line 2, column "x": "NaN" is not a finite number'],
  ["Infinity", "x,label\n-Infinity,1\n", 'd.csv: line 2, column "x": "-Infinity" is not a finite number'],
  ["an empty field", "x,y,label\n1,,1\n", 'd.csv: line 2, column "y": an empty field is not allowed'],
  ["a label other than ±1/0/1", "x,label\n1,2\n", 'd.csv: line 2, column "label": "2" is not a label; use -1/+1 or 0/1'],
  ["mixed label conventions", "x,label\n1,0\n2,-1\n3,1\n", 'd.csv: column "label" mixes 0 and -1 as the negative label; use one convention'],
  ["one class", "x,label\n1,1\n2,+1\n", 'd.csv: every label is +1: a classification needs both classes; --one-class accepts such data'],
  ["an unterminated quote", 'x,label\n"1,1\n', "d.csv: line 2: malformed CSV"],
];

describe("parseDataCsv: one line per mistake, naming line and column", () => {
  for (const [what, text, message] of CATALOGUE) {
    it(what, async () => {
      await expect(parseDataCsv(text, "d.csv")).rejects.toThrow(InputError);
      await expect(parseDataCsv(text, "d.csv")).rejects.toThrow(message);
    });
  }
});

describe("parseDataCsvSync (an experiment's data files): the same rules and messages", () => {
  for (const [what, text, message] of CATALOGUE) {
    it(what, () => {
      expect(() => parseDataCsvSync(text, "d.csv")).toThrow(InputError);
      expect(() => parseDataCsvSync(text, "d.csv")).toThrow(message);
    });
  }

  it("reads the same data set as the streaming reader", async () => {
    const text = "label,b,a\n1,2,3\n-1,4.5,-6e-3\n\n-1, 7 ,8\n\"1\",\"5\",\"-2\"\n";
    expect(parseDataCsvSync(text, "d.csv")).toEqual(await parseDataCsv(text, "d.csv"));
  });
});

describe("parseDataCsv", () => {
  it("reads features in column order with the label anywhere, 0 meaning -1", async () => {
    const data = await parseDataCsv("label,b,a\n1,2,3\n0,4.5,-6e-3\n", "d.csv");
    expect(data.features).toEqual(["b", "a"]);
    expect(Array.from(data.x)).toEqual([2, 3, 4.5, -0.006]);
    expect(Array.from(data.y)).toEqual([1, -1]);
    expect(data.planted).toBeNull();
  });

  it("accepts one class when asked", async () => {
    expect(Array.from((await parseDataCsv("x,label\n1,0\n2,0\n", "d.csv", { oneClass: true })).y)).toEqual([-1, -1]);
  });

  it("names the line even past blank lines and quoted line breaks", async () => {
    await expect(parseDataCsv('x,y,label\n\n"1",2,1\n\n3,"4\n",1\n5,six,-1\n', "d.csv")).rejects.toThrow('d.csv: line 7, column "y": "six" is not a number');
  });

  it("grows past its first buffer", async () => {
    const rows = Array.from({ length: 3000 }, (_, i) => `${i},${-i},${i % 2 ? 1 : -1}`);
    const data = await parseDataCsv(`a,b,label\n${rows.join("\n")}\n`, "d.csv");
    expect(data.n).toBe(3000);
    expect([data.x[5998], data.x[5999], data.y[2999]]).toEqual([2999, -2999, 1]);
  });

  it("keeps every value of rows wider than its first buffer (d = 5000)", async () => {
    const d = 5000;
    const header = [...Array.from({ length: d }, (_, j) => `x${j}`), "label"].join(",");
    const rows = [0, 1, 2].map((i) => [...Array.from({ length: d }, (_, j) => i * d + j), i === 1 ? -1 : 1].join(","));
    const data = await parseDataCsv(`${header}\n${rows.join("\n")}\n`, "d.csv");
    expect(Array.from(data.x)).toEqual(Array.from({ length: 3 * d }, (_, k) => k));
  });

  it("names a missing file", async () => {
    await expect(readDataCsv("/nonexistent/d.csv")).rejects.toThrow(new InputError("/nonexistent/d.csv: cannot read the data file (ENOENT)"));
  });
});

describe("dataSetCsv", () => {
  it("round-trips a data set exactly", async () => {
    const data = generatePlanted({ n: 30, d: 4, margin: 0.1, radius: 1, offset: 0.2 }, createRandom(5, "data"));
    const path = join(temporaryFolder(), "round-trip.csv");
    writeFileSync(path, dataSetCsv(data));
    const back = await readDataCsv(path);
    expect(back.x).toEqual(data.x);
    expect(back.y).toEqual(data.y);
    expect(back.features).toEqual(["x1", "x2", "x3", "x4"]);
  });
});
