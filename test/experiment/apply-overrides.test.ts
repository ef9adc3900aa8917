import { InputError } from "../../src/vocabulary/input-error.js";
import { describe, expect, it } from "vitest";
import { applyOverrides } from "../../src/experiment/apply-overrides.js";
import { experimentFromText, loadExperiment } from "../../src/experiment/load-experiment.js";

const source = { name: "x", repeats: 2, grid: { n: 10, d: [2, 3], margin: 0.1 } };
const grids = { grid: [{ n: 10, d: 2, margin: 0.1 }, { generator: "hadamard", n: 8 }] };

describe("applyOverrides (Hydra's key=value habit)", () => {
  it("sets scalars, comma lists (a sweep) and JSON values, and leaves the source untouched", () => {
    const result = applyOverrides(source, ["repeats=50", "grid.margin=0.01,0.02", 'grid.init=["zero","normal:1"]', "optimal=false", "grid.order=shuffle", "grid.eta=.5"]);
    expect(result).toEqual({
      name: "x",
      repeats: 50,
      optimal: false,
      grid: { n: 10, d: [2, 3], margin: [0.01, 0.02], init: ["zero", "normal:1"], order: "shuffle", eta: 0.5 },
    });
    expect(source.grid.margin).toBe(0.1);
  });

  it("indexes a list of grids, removes a key with null, and lets the later of two overrides win", () => {
    expect(applyOverrides(grids, ["grid[1].n=16,32", "grid[0].margin=null", "grid[0].d=5", "grid[0].d=6"])).toEqual({
      grid: [{ n: 10, d: 6 }, { generator: "hadamard", n: [16, 32] }],
    });
  });

  it("refuses what it cannot apply, naming the override and the rule", () => {
    const refused = (overrides: string[], on: unknown = source) => () => applyOverrides(on, overrides);
    expect(refused(["repeats"])).toThrow("--set repeats: expected key=value, as in grid.margin=0.01,0.02 or repeats=50");
    expect(refused(["grid.n=3"], grids)).toThrow("--set grid.n=3: grid is a list of 2: name one, as grid[0].n");
    expect(refused(["grid[2].n=3"], grids)).toThrow("--set grid[2].n=3: grid[2] does not exist");
    expect(refused(["grid[0].n=3"])).toThrow("--set grid[0].n=3: grid is not a list");
    expect(refused(["repeats.x=3"])).toThrow("--set repeats.x=3: repeats is 2, not an object or a list");
    expect(refused(["grid.margin="])).toThrow("--set grid.margin=: no value after '=' (null removes a key)");
    expect(refused(["grid.margin=0.1,,0.2"])).toThrow('--set grid.margin=0.1,,0.2: an empty item in the list "0.1,,0.2"');
    expect(refused(["grid.margin=0.1,null"])).toThrow("--set grid.margin=0.1,null: null can only stand alone (it removes the key)");
    expect(refused(["a b=1"])).toThrow('--set a b=1: "a b" is not a key: use names joined by dots, with [i] for a list item (grid[1].margin)');
    expect(refused(["__proto__.polluted=1"])).toThrow('--set __proto__.polluted=1: "__proto__.polluted" is not a key of an experiment');
    expect(refused(['grid.init=["zero"'])).toThrow(/^--set grid.init=\["zero": the value is not valid JSON/);
    expect(({} as Record<string, unknown>).polluted).toBeUndefined();
  });
});

describe("experimentFromText: JSON, YAML and overrides", () => {
  const json = JSON.stringify(source);
  const yaml = "name: x\nrepeats: 2\ngrid:\n  n: 10\n  d: [2, 3]\n  margin: 0.1\n";

  it("reads YAML to the same experiment as JSON, and names standard input in messages", () => {
    expect(experimentFromText(yaml, "x.yaml").experiment).toEqual(experimentFromText(json, "x.json").experiment);
    expect(experimentFromText(yaml, "-").experiment).toEqual(experimentFromText(json, "-").experiment);
    expect(() => experimentFromText("grid:\n  n: [1,\n", "-")).toThrow(/^standard input:3:1: invalid YAML: Flow sequence in block collection must be sufficiently indented/);
    expect(() => experimentFromText("name: a\nname: b\n", "e.yml")).toThrow("e.yml:2:1: invalid YAML: Map keys must be unique");
    // An unknown tag is refused where it stands, not read as a string after a warning from Node.
    expect(() => experimentFromText("name: t\nrepeats: !foo 2\n", "e.yaml")).toThrow(new InputError("e.yaml:2:10: invalid YAML: Unresolved tag: !foo"));
    expect(() => experimentFromText("", "-")).toThrow("standard input: nothing came, expected an experiment (JSON or YAML)");
    // A second document is refused, never ignored (0.12.2 ran the first and dropped the rest); a lone
    // document framed by `---` and `...` is one document.
    expect(() => experimentFromText(`${yaml}---\nname: y\n`, "e.yaml")).toThrow(new InputError('e.yaml:7:1: invalid YAML: a second document (after "---") where one experiment was expected: put one experiment in a file'));
    expect(() => experimentFromText(`${yaml}---\n`, "-")).toThrow(/^standard input:7:1: invalid YAML: a second document/);
    expect(experimentFromText(`---\n${yaml}...\n`, "e.yaml").experiment).toEqual(experimentFromText(json, "x.json").experiment);
    expect(() => experimentFromText("  \n", "e.yaml")).toThrow("e.yaml: the file is empty, expected a YAML object");
    // YAML 1.2's core schema: `yes` is a string, so it cannot pass for a boolean
    expect(() => experimentFromText("optimal: yes\ngrid:\n  n: 10\n  d: 2\n  margin: 0.1\n", "e.yaml")).toThrow("e.yaml: optimal: \"yes\" must be true or false");
  });

  it("validates overrides like the file, names them in messages, and folds them into the hash", () => {
    const plain = experimentFromText(json, "x.json");
    const set = experimentFromText(json, "x.json", { overrides: ["repeats=3"] });
    expect(set.experiment.repeats).toBe(3);
    expect(set.overrides).toEqual(["repeats=3"]);
    expect(set.hash).not.toBe(plain.hash);
    expect(experimentFromText(json, "x.json", { overrides: ["repeats=3"] }).hash).toBe(set.hash);
    expect(plain.overrides).toBeUndefined();
    expect(() => experimentFromText(json, "x.json", { overrides: ["grid.margin=2"] })).toThrow("x.json with --set grid.margin=2: grid.margin: 2 must be smaller than radius 1");
  });

  it("reads the shipped YAML example to the same sweep as its JSON twin", () => {
    const { name, description, ...yaml } = loadExperiment("experiments/quick.yaml").experiment;
    const { name: jsonName, description: jsonDescription, ...json } = loadExperiment("experiments/quick.json").experiment;
    expect([name, jsonName]).toEqual(["quick-yaml", "quick"]);
    expect(yaml).toEqual(json);
  });
});
