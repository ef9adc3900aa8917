import { createRequire } from "node:module";
import { crc32 } from "node:zlib";

/**
 * A figure's SVG (from renderSvg) as a vector PDF and a PNG, in Node, with no browser: PDFKit with SVG-to-PDFKit
 * draws the SVG's paths and text into a PDF whose fonts are embedded (subsets of DejaVu Sans, from the
 * dejavu-fonts-ttf package), and resvg (@resvg/resvg-js, a Rust renderer shipped as a prebuilt binary on npm)
 * rasterises it with the same font files and no system font, so that a figure looks the same on every machine.
 * The libraries load with the first figure: a report without paper figures never pays for them.
 */

const require = createRequire(import.meta.url);

/** The font every paper figure sets its text in (plot.ts's paper look names it). */
export const PAPER_FONT = "DejaVu Sans";

const FONT_FILES = { regular: "dejavu-fonts-ttf/ttf/DejaVuSans.ttf", bold: "dejavu-fonts-ttf/ttf/DejaVuSans-Bold.ttf" } as const;

function fontPath(weight: keyof typeof FONT_FILES): string {
  return require.resolve(FONT_FILES[weight]);
}

/** The SVG's own size, in its px (vega writes width="…" height="…" on the root element). */
export function svgSize(svg: string): { readonly width: number; readonly height: number } {
  const root = /<svg\b[^>]*>/.exec(svg)?.[0] ?? "";
  const read = (name: string) => Number(new RegExp(`\\b${name}="([0-9.]+)"`).exec(root)?.[1] ?? Number.NaN);
  const size = { width: read("width"), height: read("height") };
  if (!(size.width > 0 && size.height > 0)) throw new Error("a rendered SVG without its width and height (a bug)");
  return size;
}

/**
 * The SVG as a one-page PDF `widthPt` points wide (its height in proportion), fonts embedded. The PDF's dates
 * are fixed (the epoch), so that the same figure gives the same bytes.
 */
export async function svgToPdf(svg: string, widthPt: number): Promise<Buffer> {
  const [{ default: PDFDocument }, { default: SVGtoPDF }] = await Promise.all([import("pdfkit"), import("svg-to-pdfkit")]);
  const { width, height } = svgSize(svg);
  const heightPt = (height * widthPt) / width;
  const epoch = new Date(0);
  const doc = new PDFDocument({ size: [widthPt, heightPt], margin: 0, autoFirstPage: true, info: { Creator: "perceptron-lab", Producer: "PDFKit", CreationDate: epoch, ModDate: epoch } });
  doc.registerFont(PAPER_FONT, fontPath("regular"));
  doc.registerFont(`${PAPER_FONT} Bold`, fontPath("bold"));
  const chunks: Buffer[] = [];
  doc.on("data", (chunk: Buffer) => chunks.push(chunk));
  const ended = new Promise<void>((resolve, reject) => {
    doc.on("end", resolve);
    doc.on("error", reject);
  });
  SVGtoPDF(doc, withDashesPdfKitTakes(svg), 0, 0, {
    width: widthPt,
    height: heightPt,
    assumePt: false,
    fontCallback: (_family: string, bold: boolean) => (bold ? `${PAPER_FONT} Bold` : PAPER_FONT),
  });
  doc.end();
  await ended;
  return Buffer.concat(chunks);
}

/**
 * The SVG with every dash pattern PDFKit takes: it refuses a length of 0, which vega writes for a solid line in a
 * dashed legend ("1,0"). A pattern without gaps is a solid line (the attribute goes); a 0 elsewhere becomes a
 * hair (0.001 pt), which draws the same.
 */
export function withDashesPdfKitTakes(svg: string): string {
  return svg.replace(/ stroke-dasharray="([^"]*)"/g, (attribute, pattern: string) => {
    const lengths = pattern.split(/[\s,]+/).filter((part) => part !== "").map(Number);
    if (!lengths.some((length) => length === 0)) return attribute;
    const doubled = lengths.length % 2 === 1 ? [...lengths, ...lengths] : lengths;
    if (doubled.every((length, k) => k % 2 === 0 || length === 0)) return "";
    return ` stroke-dasharray="${doubled.map((length) => (length === 0 ? 0.001 : length)).join(",")}"`;
  });
}

/** The SVG as a PNG `widthPx` pixels wide (its height in proportion) at `dpi`, drawn with the paper font only. */
export async function svgToPng(svg: string, widthPx: number, dpi: number): Promise<Buffer> {
  const { Resvg } = await import("@resvg/resvg-js");
  const resvg = new Resvg(svg, {
    fitTo: { mode: "width", value: Math.round(widthPx) },
    background: "white",
    font: { fontFiles: [fontPath("regular"), fontPath("bold")], loadSystemFonts: false, defaultFontFamily: PAPER_FONT },
  });
  return withResolution(resvg.render().asPng(), dpi);
}

/**
 * The PNG with its resolution recorded (a pHYs chunk after the header, in pixels a metre), so that a page layout
 * places a 1 050-pixel figure at 3.5 in rather than at a screen's 96 dpi.
 */
export function withResolution(png: Buffer, dpi: number): Buffer {
  const IHDR_END = 8 + 4 + 4 + 13 + 4; // signature, then the header chunk: length, type, 13 bytes, CRC
  const perMetre = Math.round(dpi / 0.0254);
  const body = Buffer.alloc(4 + 9);
  body.write("pHYs", 0, "latin1");
  body.writeUInt32BE(perMetre, 4);
  body.writeUInt32BE(perMetre, 8);
  body.writeUInt8(1, 12); // unit: the metre
  const chunk = Buffer.alloc(4 + body.length + 4);
  chunk.writeUInt32BE(9, 0);
  body.copy(chunk, 4);
  chunk.writeUInt32BE(crc32(body), 4 + body.length);
  return Buffer.concat([png.subarray(0, IHDR_END), chunk, png.subarray(IHDR_END)]);
}
