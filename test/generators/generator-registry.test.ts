import { readdirSync, readFileSync, statSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { parseExperiment } from "../../src/experiment/load-experiment.js";
import { DEFAULT_GENERATOR, GENERATOR_ENTRIES, GENERATORS, generatorEntry } from "../../src/generators/generator-registry.js";

/** Every .ts file under a folder. */
function sources(folder: string): string[] {
  return readdirSync(folder).flatMap((name) => {
    const path = join(folder, name);
    return statSync(path).isDirectory() ? sources(path) : path.endsWith(".ts") ? [path] : [];
  });
}

describe("the generator registry", () => {
  it("holds one entry per name, in the schema's order, each declaring what the pipeline asks", () => {
    expect(GENERATOR_ENTRIES.map((entry) => entry.name)).toEqual([...GENERATORS]);
    expect(DEFAULT_GENERATOR).toBe("planted");
    for (const name of GENERATORS) expect(generatorEntry(name).name).toBe(name);
    expect(() => generatorEntry("toString")).toThrow('no generator named "toString"');
    expect(() => generatorEntry("gaussian")).toThrow('no generator named "gaussian"');
    expect(() => parseExperiment({ grid: { generator: "gaussian", n: 3 } }, "g")).toThrow("must be one of planted, orthonormal, hadamard, three-point, csv");
  });

  it("is the only place that branches on a generator's name: no switch or comparison on one anywhere else in src/", () => {
    const names = GENERATORS.map((name) => name.replace("-", "\\-")).join("|");
    const branch = new RegExp(`(generator\\s*[!=]==\\s*"(${names})"|case\\s+"(${names})"\\s*:|generator\\.includes\\("(${names})"\\))`);
    const offenders = sources("src")
      .filter((path) => !path.startsWith(join("src", "generators")))
      .filter((path) => branch.test(readFileSync(path, "utf8")));
    expect(offenders).toEqual([]);
  });
});
