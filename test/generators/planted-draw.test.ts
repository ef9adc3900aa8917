import seedrandom from "seedrandom";
import { describe, expect, it } from "vitest";
import { plantedDrawWasm } from "../../src/generators/planted-draw.js";
import { generatePlanted, type PlantedParameters } from "../../src/generators/planted.js";
import { fdlibmExp } from "../../src/math/fdlibm-exp.js";
import { fdlibmLog } from "../../src/math/fdlibm-log.js";
import { fromWords } from "../../src/math/float64-words.js";
import { rowPassKernel } from "../../src/perceptron/perceptron-wasm.js";
import { createDraws, type Draws } from "../../src/random/random-draws.js";
import { ZigguratNormal } from "../../src/random/ziggurat-normal.js";
import type { DataVersion } from "../../src/random/data-version.js";

/** The run's draws as the generator sees them: with the generator (the WebAssembly placement) or without (the TypeScript reference). */
function draws(seed: number, version: DataVersion, inWasm: boolean): Draws {
  const all = createDraws(seed, "data", version);
  return inWasm ? all : { uniform: all.uniform, normal: all.normal, version: all.version };
}

/** A data set as bits (x, y, w, b), and the next draws of its stream (where label noise and later draws go on). */
function bits(params: PlantedParameters, source: Draws): string[] {
  const data = generatePlanted(params, source);
  const text = (value: number) => (Object.is(value, -0) ? "-0" : String(value));
  return [...data.x].map(text).concat([...data.y].map(String), [...data.planted!.w].map(text), [text(data.planted!.b), text(source.uniform()), text(source.normal.next())]);
}

describe("the planted data set in WebAssembly (data versions 2 and 3)", () => {
  it("runs where the module loads, and gives the TypeScript placement's points, labels, w and the stream after it, to the bit", () => {
    expect(rowPassKernel()).not.toBeNull();
    const random = seedrandom("planted-draw");
    for (let trial = 0; trial < 600; trial++) {
      // n from 2 and d from 2 (every tail of the module's four-row groups), then larger; every knob of the family.
      const n = trial < 120 ? 2 + (trial % 11) : 2 + Math.floor(random() * 150);
      const d = trial < 120 ? 2 + Math.floor(trial / 11) : 2 + Math.floor(random() * (trial % 7 === 0 ? 60 : 12));
      const radius = [1, 3, 1e-3, 1e6][trial % 4]!;
      const margin = radius * [0.1, 0.5, 1e-6, 0.01][Math.floor(trial / 4) % 4]!;
      const offset = trial % 3 === 0 ? 0 : (random() - 0.5) * (radius - margin) * 0.9;
      const overlap = trial % 5 === 0 ? random() * (radius - Math.abs(offset)) * 0.5 : 0;
      const noise = trial % 6 === 0 ? 0.2 : 0;
      const params = { n, d, margin, radius, offset, overlap, noise };
      const seed = Math.floor(random() * 2 ** 53);
      const version: DataVersion = trial % 2 === 0 ? 3 : 2;
      const inWasm = bits(params, draws(seed, version, true));
      expect(inWasm, JSON.stringify({ ...params, seed, version })).toEqual(bits(params, draws(seed, version, false)));
    }
  });

  it("covers the ziggurat's wedges and tails: 4·10⁶ normals drawn through both, bit for bit", () => {
    // 40 data sets of n 1 000, d 100: ~1 % of the normals take a wedge (two exps), ~3·10⁻⁴ the tail (two logs).
    for (let seed = 0; seed < 40; seed++) {
      const params = { n: 1000, d: 100, margin: 0.01, radius: 1, offset: 0 };
      const a = draws(seed, 3, true);
      const b = draws(seed, 3, false);
      const x = generatePlanted(params, a).x;
      const y = generatePlanted(params, b).x;
      let same = x.length === y.length;
      for (let k = 0; same && k < x.length; k++) same = Object.is(x[k], y[k]);
      expect(same, `seed ${seed}`).toBe(true);
      expect(a.uniform()).toBe(b.uniform());
    }
    // The normals themselves: a tail draw (beyond R ≈ 3.654) occurs in these 4·10⁶ (a check that the path ran).
    const normal = new ZigguratNormal(createDraws(7, "data", 3).generator!);
    const values = new Float64Array(4_000_000);
    normal.fill(values);
    expect(values.some((value) => Math.abs(value) > 3.6541528853610088)).toBe(true);
  });

  it("leaves d = 1 and n = 1 to the TypeScript placement (its module call says no)", () => {
    const generator = createDraws(1, "data", 3).generator!;
    expect(plantedDrawWasm(generator, new Float64Array(10), 10, 1, 0.1, 1, 0, 0)).toBeNull();
    expect(plantedDrawWasm(generator, new Float64Array(5), 1, 5, 0.1, 1, 0, 0)).toBeNull();
    // and d = 1 data sets are the same whichever draws they get
    expect(bits({ n: 30, d: 1, margin: 0.1, radius: 1, offset: 0.2 }, draws(5, 3, true))).toEqual(bits({ n: 30, d: 1, margin: 0.1, radius: 1, offset: 0.2 }, draws(5, 3, false)));
  });
});

describe("fdlibm's exp and log in the module", () => {
  /** Doubles of every exponent and sign, the special values, and the ziggurat's own arguments. */
  function arguments_(count: number): number[] {
    const random = seedrandom("fdlibm-module");
    const values = [0, -0, 1, -1, 0.5, 2, Math.E, Math.LN2, 709.78, 709.79, -745.13, -745.14, 1e-300, 5e-324, -5e-324, Infinity, -Infinity, NaN, 2 ** -28, -(2 ** -28)];
    for (let k = 0; k < count; k++) {
      const high = Math.floor(random() * 2 ** 32);
      const low = Math.floor(random() * 2 ** 32);
      values.push(fromWords(high, low)); // any bits: every exponent, subnormals, NaNs and infinities
      values.push((random() - 0.5) * 20); // |x| ≤ 10: exp's reduction for k of either sign
      values.push(-0.5 * random() * 13.36); // the wedge's −(X[i]² − x²)/2
      values.push(1 - random()); // the tail's 1 − U
    }
    return values;
  }

  it("gives fdlibmExp's and fdlibmLog's bits on 4·10⁵ arguments", () => {
    const kernel = rowPassKernel()!;
    const text = (value: number) => (Object.is(value, -0) ? "-0" : String(value));
    let differences = 0;
    const examples: string[] = [];
    for (const x of arguments_(100_000)) {
      for (const [name, module, reference] of [
        ["exp", kernel.fdlibmExp, fdlibmExp],
        ["log", kernel.fdlibmLog, fdlibmLog],
      ] as const) {
        if (text(module(x)) !== text(reference(x))) {
          differences++;
          if (examples.length < 5) examples.push(`${name}(${x}): ${module(x)} against ${reference(x)}`);
        }
      }
    }
    expect(examples).toEqual([]);
    expect(differences).toBe(0);
  });
});
