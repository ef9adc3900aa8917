/** SVG-to-PDFKit ships no types: the one call render-paper.ts makes. */
declare module "svg-to-pdfkit" {
  interface Options {
    readonly width?: number;
    readonly height?: number;
    readonly assumePt?: boolean;
    readonly fontCallback?: (family: string, bold: boolean, italic: boolean) => string;
  }
  export default function SVGtoPDF(doc: PDFKit.PDFDocument, svg: string, x: number, y: number, options?: Options): void;
}
