import * as vega from "vega";
import { compile } from "vega-lite";

/** A Vega-Lite specification rendered to an SVG string, in Node, with no browser and no network. */
export async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
