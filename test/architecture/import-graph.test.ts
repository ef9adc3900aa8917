import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/**
 * The house's structure (docs/architecture.md, "Floors"), from the import graph of src/: every module under src/
 * (the AssemblyScript kernel aside) and every module it imports, for its values or its types alike: a circle made
 * of type imports is still a circle a reader has to hold in their head.
 */
function importGraph(): Map<string, string[]> {
  const files: string[] = [];
  const walk = (folder: string) => {
    for (const name of readdirSync(folder)) {
      const path = join(folder, name);
      if (statSync(path).isDirectory()) {
        if (name !== "assembly") walk(path);
      } else if (path.endsWith(".ts")) files.push(path);
    }
  };
  walk("src");
  const known = new Set(files);
  const graph = new Map<string, string[]>();
  for (const file of files) {
    const text = readFileSync(file, "utf8");
    const imported = [...text.matchAll(/^(?:import|export)\s[^;]*?from\s+"(\.[^"]+)"/gms), ...text.matchAll(/\bimport\(\s*"(\.[^"]+)"\s*\)/g)].map((match) =>
      relative(".", resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts"))),
    );
    graph.set(file, [...new Set(imported.filter((path) => known.has(path)))]);
  }
  return graph;
}

/**
 * The floors, bottom first: a module imports only from its own floor or the floors below. The pipeline reads
 * upward (experiment file → spec → sweep → pool → run → rows → aggregation → exporters), with the shapes every
 * stage shares at the bottom (vocabulary; types: declarations for packages without their own) and the command line
 * at the top. index.ts, the library's face, stands above all.
 */
const FLOORS = [
  "types",
  "vocabulary",
  "math",
  "random",
  "files",
  "perceptron",
  "generators",
  "bounds",
  "run",
  "plugins",
  "experiment",
  "export",
  "aggregate",
  "sweep",
  "dataset",
  "pool",
  "runner",
  "report",
  "compare",
  "cluster",
  "cli",
  "index.ts",
] as const;

const floorOf = (file: string) => FLOORS.indexOf(file.split("/")[1] as (typeof FLOORS)[number]);

describe("the source tree's imports", () => {
  const graph = importGraph();

  it("form no circle, of values or of types", () => {
    const state = new Map<string, "open" | "done">();
    const path: string[] = [];
    const circles: string[] = [];
    const visit = (file: string) => {
      state.set(file, "open");
      path.push(file);
      for (const next of graph.get(file)!) {
        if (state.get(next) === "open") circles.push([...path.slice(path.indexOf(next)), next].join(" → "));
        else if (state.get(next) === undefined) visit(next);
      }
      path.pop();
      state.set(file, "done");
    };
    for (const file of graph.keys()) if (!state.has(file)) visit(file);
    expect(graph.size).toBeGreaterThan(100);
    expect(circles).toEqual([]);
  });

  it("never run up a floor: every folder of src/ has its floor, and imports only its own or lower ones", () => {
    const unplaced = [...new Set([...graph.keys()].filter((file) => floorOf(file) < 0).map((file) => file.split("/")[1]))];
    expect(unplaced, "a folder of src/ missing from FLOORS: place it").toEqual([]);
    const upward = [...graph].flatMap(([file, imported]) => imported.filter((path) => floorOf(path) > floorOf(file)).map((path) => `${file} → ${path}`));
    expect(upward).toEqual([]);
  });

  it("keep the vocabulary at the bottom: it imports nothing of the project but itself", () => {
    const outside = [...graph].flatMap(([file, imported]) => (file.startsWith("src/vocabulary/") ? imported.filter((path) => !path.startsWith("src/vocabulary/")).map((path) => `${file} → ${path}`) : []));
    expect(outside).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith("src/vocabulary/")).length).toBeGreaterThan(5);
  });

  it("keep src/math below everything but the vocabulary: it imports nothing outside itself (the row passes, which call the kernel, live with it in src/perceptron)", () => {
    const upward = [...graph].flatMap(([file, imported]) => (file.startsWith("src/math/") ? imported.filter((path) => !path.startsWith("src/math/")).map((path) => `${file} → ${path}`) : []));
    expect(upward).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith("src/math/")).length).toBeGreaterThan(10);
  });

  it("keep every source file to one idea: none over 400 lines", () => {
    const long = [...graph.keys()].map((file) => [file, readFileSync(file, "utf8").split("\n").length] as const).filter(([, lines]) => lines > 400);
    expect(long).toEqual([]);
  });

  it("keep each structured family's name to its own module and the registry's line (the schema, tables and report ask the registry)", () => {
    // Code only: comments may say what a family does. ("planted" and "csv" are also a separator's and a format's names.)
    const code = (file: string) => readFileSync(file, "utf8").replace(/\/\*[\s\S]*?\*\//g, "").replace(/(^|[^:"`'])\/\/.*$/gm, "$1").toLowerCase();
    for (const name of ["orthonormal", "hadamard", "three-point"]) {
      const files = [...graph.keys()].filter((file) => code(file).includes(name)).sort();
      expect(files, name).toEqual([`src/generators/${name}.ts`, "src/generators/generator-registry.ts"].sort());
    }
  });
});
