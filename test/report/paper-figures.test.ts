import { inflateSync } from "node:zlib";
import { describe, expect, it } from "vitest";
import { fitPaperFigure, paperFigure, paperSpec } from "../../src/report/paper-figures.js";
import { svgSize, withDashesPdfKitTakes } from "../../src/report/render-paper.js";
import { PAPER_WIDTHS, plotFiles } from "../../src/vocabulary/result-files.js";

const [ONE_COLUMN, TWO_COLUMNS] = PAPER_WIDTHS;

/** A 4 × 2 grid of panels, as updates-vs-bounds draws four bounds over two dimensions, with a screen's look. */
function grid(): Record<string, unknown> {
  const values = ["Novikoff", "Snapp", "Hu", "N(v)"].flatMap((panel) => [2, 10].flatMap((d) => [1, 2, 3].map((k) => ({ panel, d, x: 10 ** k, y: k * d }))));
  return {
    $schema: "https://vega.github.io/schema/vega-lite/v6.json",
    data: { values },
    facet: {
      column: { field: "panel", type: "nominal", title: null, header: { labelFontSize: 12, labelFontWeight: "bold" } },
      row: { field: "d", type: "nominal", title: null, header: { labelExpr: "'d = ' + (datum.label)", labelFontSize: 12, labelFontWeight: "bold", labelAngle: 0, labelAlign: "left", labelOrient: "left" } },
    },
    spec: { width: 300, height: 260, mark: "point", encoding: { x: { field: "x", type: "quantitative", scale: { type: "log" }, axis: { values: [10, 100, 1000, 10000] } }, y: { field: "y", type: "quantitative", title: "observed updates" } } },
    config: { font: "system-ui", axis: { labelFontSize: 11 }, range: { category: ["#0072b2", "#e69f00"] } },
  };
}

describe("paper figures", () => {
  it("set every text in the embedded font at a page's sizes, the screen's bold headers plain, the palette kept", () => {
    const spec = paperSpec(grid(), 0.5) as { facet: Record<string, { header: Record<string, unknown> }>; spec: { width: number; height: number }; config: Record<string, unknown> };
    expect(spec.spec).toMatchObject({ width: 150, height: 130 });
    expect(spec.facet.column!.header).toMatchObject({ labelFontSize: 8, labelFontWeight: "normal" });
    expect(spec.config.font).toBe("DejaVu Sans");
    expect(spec.config.axis).toMatchObject({ labelFontSize: 7, titleFontSize: 8 });
    expect(spec.config.range).toEqual({ category: ["#0072b2", "#e69f00"] });
  });

  it("turn a grid wider than tall on its side for a narrow column, and keep it for a wide one", () => {
    const narrow = paperSpec(grid(), 0.3, true) as { facet: Record<string, { field: string; header: Record<string, unknown> }> };
    expect(narrow.facet.column!.field).toBe("d");
    expect(narrow.facet.row!.field).toBe("panel");
    // The row's header upright on the left, the column's above its panel, each with its own label.
    expect(narrow.facet.row!.header).toMatchObject({ labelAngle: 0, labelOrient: "left" });
    expect(narrow.facet.column!.header.labelOrient).toBeUndefined();
    expect(narrow.facet.column!.header.labelExpr).toBe("'d = ' + (datum.label)");
    const wide = paperSpec(grid(), 0.5) as { facet: Record<string, { field: string }> };
    expect(wide.facet.column!.field).toBe("panel");
  });

  it("turn a row of panels wider than two into a column of panels for a narrow column, with no column facet left behind", async () => {
    const { row: _row, ...onlyColumns } = (grid() as { facet: Record<string, unknown> }).facet;
    const spec = { ...grid(), facet: onlyColumns };
    const narrow = paperSpec(spec, 0.3, true) as { facet: Record<string, { field: string }> };
    expect(Object.keys(narrow.facet)).toEqual(["row"]);
    expect(narrow.facet.row!.field).toBe("panel");
    // And Vega-Lite draws it (a facet key left undefined made it throw).
    const { svg } = await fitPaperFigure(spec, ONE_COLUMN);
    expect(svgSize(svg).width).toBeGreaterThan(200);
  });

  it("fit each width: the figure as wide as the column (within a few points), or scaled down to it only where labels cannot shrink", async () => {
    for (const width of [ONE_COLUMN, TWO_COLUMNS]) {
      const { svg } = await fitPaperFigure(grid(), width);
      const drawn = svgSize(svg).width;
      expect(drawn).toBeGreaterThan(width.inches * 72 * 0.85);
      expect(drawn).toBeLessThan(width.inches * 72 * 1.25);
    }
  });

  it("write a PDF a column wide with its font embedded, and a 300-dpi PNG that says so, the same bytes every time", async () => {
    const first = await paperFigure(grid(), ONE_COLUMN);
    const again = await paperFigure(grid(), ONE_COLUMN);
    expect(first.pdf.equals(again.pdf)).toBe(true);
    expect(first.png.equals(again.png)).toBe(true);
    const pdf = first.pdf.toString("latin1");
    expect(pdf).toMatch(/\/MediaBox \[0 0 252 [0-9.]+\]/);
    expect(pdf).toContain("/FontFile2");
    expect(pdf).toMatch(/\/BaseFont \/[A-Z]{6}\+DejaVuSans/);
    // The PNG: 3.5 in at 300 dpi across, and a pHYs chunk of 11 811 pixels a metre.
    expect(first.png.readUInt32BE(16)).toBe(1050);
    const at = first.png.indexOf("pHYs");
    expect([first.png.readUInt32BE(at + 4), first.png.readUInt32BE(at + 8), first.png[at + 12]]).toEqual([11811, 11811, 1]);
    // Its pixels decode (the chunk inserted where it belongs: the image data follow intact).
    const data = first.png.indexOf("IDAT");
    expect(inflateSync(first.png.subarray(data + 4, data + 4 + first.png.readUInt32BE(data - 4))).length).toBeGreaterThan(0);
  });

  it("draw a solid line where vega wrote a dash pattern PDFKit refuses", () => {
    expect(withDashesPdfKitTakes('<path stroke-dasharray="1,0" d="M0,0"/>')).toBe('<path d="M0,0"/>');
    expect(withDashesPdfKitTakes('<path stroke-dasharray="4,0,2,2"/>')).toBe('<path stroke-dasharray="4,0.001,2,2"/>');
    expect(withDashesPdfKitTakes('<path stroke-dasharray="4,4"/>')).toBe('<path stroke-dasharray="4,4"/>');
  });

  it("are files of the report that --overwrite clears by name", () => {
    expect(plotFiles("ratio-vs-margin")).toEqual([
      "ratio-vs-margin.svg",
      "ratio-vs-margin.vl.json",
      "ratio-vs-margin.3.5in.pdf",
      "ratio-vs-margin.3.5in.300dpi.png",
      "ratio-vs-margin.3.5in.vl.json",
      "ratio-vs-margin.7in.pdf",
      "ratio-vs-margin.7in.300dpi.png",
      "ratio-vs-margin.7in.vl.json",
    ]);
  });
});
