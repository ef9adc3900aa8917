import { describe, expect, it } from "vitest";
import { CATEGORY_CAPACITY, coincidentMarks, decades, diagonalWithin, ordinal, plotSpec, scaleFor, thinned } from "../../src/report/plot.js";
import { describeLayout, everyPanel, facetedSpec, layoutFactors, sweepFactors } from "../../src/report/sweep-factors.js";
import type { PointParameters } from "../../src/run/run-types.js";
import { pointParameters } from "../helpers.js";

/** The points of a full factorial grid over the given values. */
function grid(values: Partial<Record<keyof PointParameters, readonly unknown[]>>): PointParameters[] {
  let points: PointParameters[] = [pointParameters()];
  for (const [key, options] of Object.entries(values)) points = points.flatMap((point) => options!.map((value) => ({ ...point, [key]: value }) as PointParameters));
  return points;
}

describe("sweepFactors", () => {
  it("implies nothing on a full factorial grid", () => {
    const factors = sweepFactors(grid({ margin: [0.1, 0.2], d: [2, 10], order: ["cyclic", "shuffle"] }));
    expect(factors).toEqual({ varying: ["margin", "d", "order"], shown: ["margin", "d", "order"], implied: [] });
  });

  it("finds the factors the others fix: the worst-case families' d and bias follow from generator and n", () => {
    const orthonormal = [2, 8].map((n) => pointParameters({ generator: "orthonormal", n, d: n, bias: false, margin: null }));
    const hadamard = [2, 8].map((n) => pointParameters({ generator: "hadamard", n, d: n - 1, bias: true, margin: null }));
    const factors = sweepFactors([...orthonormal, ...hadamard].flatMap((point) => [{ ...point, eta: 0.5 }, { ...point, eta: 1 }]));
    expect(factors.varying).toEqual(["generator", "n", "d", "bias", "eta"]);
    expect(factors.implied).toEqual(["d", "bias"]);
    expect(factors.shown).toEqual(["generator", "n", "eta"]);
  });

  it("never implies a fixed factor (a plot's axis), and leaves it out of the shown ones", () => {
    // margin and d move together: one of them is implied by the other, but not the axis.
    const points = [0.1, 0.2].map((margin, index) => pointParameters({ margin, d: [2, 10][index]! }));
    expect(sweepFactors(points, ["d"])).toEqual({ varying: ["margin", "d"], shown: [], implied: ["margin"] });
    expect(sweepFactors(points, ["margin"])).toEqual({ varying: ["margin", "d"], shown: [], implied: ["d"] });
  });
});

describe("layoutFactors", () => {
  it("gives each factor the first free channel that can show its values, pools the rest, and says so", () => {
    const points = grid({ init: ["zero", "normal:1"], margin: [0.05, 0.1, 0.2], d: [2, 10], offset: [0, 0.3], eta: [0.1, 1] });
    const layout = layoutFactors(points, ["init", "margin", "d", "offset", "eta"], ["color", "shape", "row"]);
    expect(layout.channels).toEqual({ color: "init", shape: "margin", row: "d" });
    expect(layout.pooled).toEqual(["offset", "eta"]);
    expect(describeLayout(layout)).toBe("colour: ŵ(0); shape: margin γ; panel rows: d; pooled in each mark: offset, η.");
  });

  it("skips a channel too small for a factor's values (12 margins: no colour, no dash)", () => {
    const margins = Array.from({ length: 12 }, (_, index) => 0.01 * (index + 1));
    const layout = layoutFactors(grid({ margin: margins, order: ["cyclic", "shuffle"] }), ["margin", "order"], ["color", "strokeDash", "detail"]);
    expect(layout.channels).toEqual({ detail: "margin", color: "order" });
  });

  it("wraps more than four panels evenly and then adds no row of panels", () => {
    const points = grid({ init: ["zero", "normal:0.1", "normal:1", "normal:10", "uniform:1"], d: [2, 10] });
    const layout = layoutFactors(points, ["init", "d"], ["column", "row", "strokeDash"]);
    expect(layout.channels).toEqual({ column: "init", strokeDash: "d" });
    const spec = facetedSpec(layout, [], { mark: "point" }, { width: 300, height: 200 }) as { columns: number; facet: { field: string; sort: unknown[] }; spec: { width: number } };
    expect(spec.columns).toBe(3); // five panels as 3 + 2
    expect(spec.facet.field).toBe("init");
    expect(spec.facet.sort).toEqual(["zero", "normal:0.1", "normal:1", "normal:10", "uniform:1"]); // the sweep's order
    expect(spec.spec.width).toBe(Math.floor(860 / 3) - 20);
  });

  it("lists every panel a reference line must be copied into", () => {
    const layout = layoutFactors(grid({ d: [2, 10], order: ["cyclic", "shuffle"] }), ["d", "order"], ["column", "row"]);
    expect(everyPanel(layout)).toEqual([
      { d: 2, order: "cyclic" },
      { d: 2, order: "shuffle" },
      { d: 10, order: "cyclic" },
      { d: 10, order: "shuffle" },
    ]);
  });
});

describe("plot helpers", () => {
  it("give every value of a colour channel its own colour (none repeats as Vega cycles the list)", () => {
    const spec = plotSpec({}, { varying: [], implied: [], inLabel: [], pooled: [] }) as { config: { range: { category: string[] } } };
    expect(new Set(spec.config.range.category.map((colour) => colour.toLowerCase())).size).toBe(CATEGORY_CAPACITY);
    expect(CATEGORY_CAPACITY).toBeGreaterThanOrEqual(10);
    // 10 values of d take the colour channel (its capacity), 11 do not.
    const rows = (count: number) => Array.from({ length: count }, (_, k) => ({ d: k + 1 })) as never[];
    expect(layoutFactors(rows(10), ["d"], ["color", "shape"]).channels.color).toBe("d");
    expect(layoutFactors(rows(11), ["d"], ["color", "shape"]).channels.color).toBeUndefined();
  });

  it("clips y = x to the data's box, or draws none where it misses the box", () => {
    // Bounds 100..10^8, updates 3..2·10^4: the line from 100 to 2·10^4, not to 10^8.
    expect(diagonalWithin([100, 1e8], [3, 2e4])).toEqual([{ x: 100, y: 100 }, { x: 2e4, y: 2e4 }]);
    expect(diagonalWithin([1e3, 1e4], [1, 10])).toEqual([]);
    // On log axes the box is what they show, the data's widened to powers of ten: the line crosses the plot.
    expect(diagonalWithin([150, 2e7], [2, 250], { log: true })).toEqual([{ x: 100, y: 100 }, { x: 1000, y: 1000 }]);
    expect(decades(150, 2e7)).toEqual([100, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8]);
    expect(decades(100, 1000)).toEqual([100, 1000]);
  });

  it("uses a log axis only where the values span a decade above 0, symlog where 0 is among them", () => {
    expect(scaleFor([0.25, 0.355])).toEqual({ type: "linear", zero: false });
    expect(scaleFor([0.01, 0.5])).toEqual({ type: "log" });
    expect(scaleFor([0, 3, 300])).toEqual({ type: "symlog" });
  });

  it("words ordinals", () => {
    expect([1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111].map(ordinal)).toEqual(["1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th"]);
  });

  it("thins to every k-th item, the same ones every time", () => {
    expect(thinned([0, 1, 2, 3, 4, 5, 6], 3)).toEqual({ kept: [0, 3, 6], every: 3 });
    expect(thinned([0, 1], 3)).toEqual({ kept: [0, 1], every: 1 });
  });

  it("counts the places where marks of another look hide", () => {
    const data = [
      { x: 1, y: 1, eta: 0.5 },
      { x: 1, y: 1, eta: 1 },
      { x: 2, y: 2, eta: 1 },
      { x: 2, y: 2, eta: 1 },
    ];
    expect(coincidentMarks(data, ["x", "y"], ["eta"])).toBe("At 1 place marks of different colour or shape coincide (equal values), so the top one hides the others.");
    expect(coincidentMarks(data.slice(2), ["x", "y"], ["eta"])).toBe("");
  });
});
