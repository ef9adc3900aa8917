import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { A_PRIORI_KEYS, BOUND_ENTRIES, boundModes, wantedBounds } from "../../src/bounds/bound-choice.js";
import { BOUND_NAMES } from "../../src/bounds/bound-columns.js";
import { SEPARATOR_BOUNDS } from "../../src/bounds/separator/separator-bounds.js";
import { EVERY_RUN_COLUMNS, MEDIAN_COLUMNS, STATISTIC_COLUMNS } from "../../src/aggregate/run-digest.js";
import { RUN_COLUMNS } from "../../src/run/run-columns.js";
import { summaryTable } from "../../src/export/summary-table.js";
import { BOUND_TITLES, PLOTTED_BOUNDS } from "../../src/report/plot.js";
import { REPORT_COLUMNS } from "../../src/report/summary-columns.js";

/** Every .ts file under a folder. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

const capitalised = (name: string) => name.charAt(0).toUpperCase() + name.slice(1);

describe("the separator bounds' registry (src/bounds/separator/separator-bounds.ts)", () => {
  it("is where the tables, the bounds key, the summaries, the printed table and the report take each bound from", () => {
    const names = SEPARATOR_BOUNDS.map((bound) => bound.name);
    expect(names).toEqual(["novikoff", "snapp", "hu", "optimised"]);
    expect(BOUND_NAMES).toEqual([...names, "best"]);
    expect(A_PRIORI_KEYS.slice(0, names.length)).toEqual(names);
    for (const bound of SEPARATOR_BOUNDS) {
      const columns = ["planted", "optimal"].flatMap((separator) => [`${separator}${capitalised(bound.name)}Bound`, `${separator}${capitalised(bound.name)}Ratio`]);
      for (const column of columns) expect(RUN_COLUMNS, column).toContain(column);
      expect(BOUND_ENTRIES[bound.name].columns.toSorted()).toEqual(columns.toSorted());
      expect(BOUND_ENTRIES[bound.name]).toMatchObject({ byDefault: "always", cost: bound.cost });
      expect(boundModes("default")[bound.name]).toBe("always");
      expect(wantedBounds(boundModes([]))[bound.name]).toBe(false);
      expect(MEDIAN_COLUMNS).toContain(`optimal${capitalised(bound.name)}Bound`);
      expect(STATISTIC_COLUMNS).toContain(`planted${capitalised(bound.name)}Ratio`);
      expect(BOUND_TITLES[bound.name]).toBe(bound.title);
      expect(REPORT_COLUMNS.map((column) => column.title)).toContain(`${bound.short}*`);
    }
    expect(PLOTTED_BOUNDS).toEqual(names);
    expect(EVERY_RUN_COLUMNS.some((column) => names.some((name) => column.includes(capitalised(name))))).toBe(false);
    const header = summaryTable([], 0).split("\n")[0]!.split(/\s+/);
    expect(header.slice(header.indexOf("updates") + 1)).toEqual([...names, ...names.map((name) => `${name}*`), "best"]);
  });

  it("is the only place in src/ that spells a separator bound's name as a string (the tables' columns are made from the names)", () => {
    const names = SEPARATOR_BOUNDS.map((bound) => bound.name).join("|");
    const spelled = new RegExp(`["'\`](${names})["'\`]|\\b(planted|optimal)(${SEPARATOR_BOUNDS.map((bound) => capitalised(bound.name)).join("|")})(Bound|Ratio)\\b`);
    const offenders = sources("src")
      .filter((path) => !path.startsWith(join("src", "bounds", "separator")))
      // The tightest separators are Hu's D² and N(v)'s own search (the `tightest` name's columns).
      .filter((path) => path !== join("src", "bounds", "tightest-separators.ts"))
      .flatMap((path) => readFileSync(path, "utf8").split("\n").map((line, k) => ({ path, line, k })))
      // Comments and messages may name them: the code must not.
      .filter(({ line }) => !/^\s*(\/\/|\*|\/\*\*)/.test(line) && spelled.test(line.replace(/`[^`]*`/g, "``")))
      .map(({ path, k, line }) => `${path}:${k + 1}: ${line.trim()}`);
    expect(offenders).toEqual([]);
  });
});
