/**
 * vega and vega-lite, loaded with the first plot rendered: they take ~0.3 s to load, which every command
 * (run --no-report, compare, merge, even --help) paid at its start while they were imported statically.
 */
let renderer: Promise<[typeof import("vega"), typeof import("vega-lite")]> | null = null;

/** A Vega-Lite specification rendered to an SVG string, in Node, with no browser and no network. */
export async function renderSvg(spec: Record<string, unknown>): Promise<string> {
  renderer ??= Promise.all([import("vega"), import("vega-lite")]);
  const [vega, { compile }] = await renderer;
  const view = new vega.View(vega.parse(compile(spec as never).spec), { renderer: "none" });
  try {
    return await view.toSVG();
  } finally {
    view.finalize();
  }
}
