import { readdirSync, readFileSync, statSync } from "node:fs";
import { dirname, join, relative, resolve } from "node:path";
import { describe, expect, it } from "vitest";

/** Every TypeScript module under src/ (the AssemblyScript kernel aside) and the modules it imports for their values. */
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
    // `import type` and `export type` vanish from the JavaScript: only value imports make an evaluation order.
    const imported = [...text.matchAll(/^(?:import|export)\s+(?!type\b)[^;]*?from\s+"(\.[^"]+)"/gms)].map((match) =>
      relative(".", resolve(dirname(file), match[1]!.replace(/\.js$/, ".ts"))),
    );
    graph.set(file, imported.filter((path) => known.has(path)));
  }
  return graph;
}

describe("the source tree's imports", () => {
  const graph = importGraph();

  it("form no circle", () => {
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

  it("keep src/math at the bottom: it imports nothing outside itself (the row passes, which call the kernel, live with it in src/perceptron)", () => {
    const upward = [...graph].flatMap(([file, imported]) => (file.startsWith("src/math/") ? imported.filter((path) => !path.startsWith("src/math/")).map((path) => `${file} → ${path}`) : []));
    expect(upward).toEqual([]);
    expect([...graph.keys()].filter((file) => file.startsWith("src/math/")).length).toBeGreaterThan(10);
  });
});
