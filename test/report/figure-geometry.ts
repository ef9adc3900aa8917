import { readFileSync, writeFileSync } from "node:fs";
import { chromiumDom } from "./chromium.js";

/**
 * What headless Chromium measures of a report's figures at 1 200 px: for each SVG, in page order, the text
 * boxes that overlap another by more than a pixel each way, the texts that reach outside the figure, the marks
 * (a data mark's path, symbol, line or rect) that reach outside their panel, and the facet headers. Measured by
 * a script run in a copy of the page (the report itself has none), from the laid-out boxes
 * (getBoundingClientRect), so text is measured in the font Chromium drew it in.
 */
export interface FigureGeometry {
  readonly id: string;
  readonly overlaps: readonly (readonly [string, string])[];
  readonly clipped: readonly string[];
  readonly outside: readonly string[];
  readonly headers: readonly string[];
}

/** Runs in the page: its result as JSON in <pre id="geometry">. Kept in ES2015 and dependency-free. */
const MEASURE = String.raw`
(function () {
  function hidden(node) {
    for (var el = node; el && el.nodeType === 1; el = el.parentNode) {
      var style = getComputedStyle(el);
      if (style.display === "none" || style.visibility === "hidden" || Number(style.opacity) === 0) return true;
      if (el.getAttribute("opacity") === "0" || el.getAttribute("fill-opacity") === "0") return true;
    }
    return false;
  }
  function roleOf(node) {
    var group = node.closest("g[class*='role-']");
    // A header's own label is a title inside the header's group (which holds that row's axes too).
    var header = node.closest("g[class*='-header']");
    if (header && group && /role-title/.test(group.getAttribute("class"))) return /role-([a-z]+-header)/.exec(header.getAttribute("class"))[1];
    var match = group ? /role-([a-z-]+)/.exec(group.getAttribute("class")) : null;
    return match ? match[1] : "";
  }
  function meets(a, b, slack) {
    return Math.min(a.right, b.right) - Math.max(a.left, b.left) > slack && Math.min(a.bottom, b.bottom) - Math.max(a.top, b.top) > slack;
  }
  function within(inner, outer, slack) {
    return inner.left >= outer.left - slack && inner.right <= outer.right + slack && inner.top >= outer.top - slack && inner.bottom <= outer.bottom + slack;
  }
  // A text's box as drawn, rotated with it: its local bounding box's corners on the screen. Two texts meet when
  // no edge of either separates them (convex quadrilaterals), by more than a pixel.
  function quadOf(t) {
    var b = t.getBBox();
    var m = t.getScreenCTM();
    return [[b.x, b.y], [b.x + b.width, b.y], [b.x + b.width, b.y + b.height], [b.x, b.y + b.height]].map(function (p) {
      return [m.a * p[0] + m.c * p[1] + m.e, m.b * p[0] + m.d * p[1] + m.f];
    });
  }
  function quadsMeet(p, q, slack) {
    var polygons = [p, q];
    for (var k = 0; k < 2; k++) {
      var poly = polygons[k];
      for (var e = 0; e < 4; e++) {
        var a = poly[e], b = poly[(e + 1) % 4];
        var nx = b[1] - a[1], ny = a[0] - b[0];
        var length = Math.hypot(nx, ny) || 1;
        nx /= length; ny /= length;
        var project = function (points) { var lo = Infinity, hi = -Infinity; points.forEach(function (pt) { var v = pt[0] * nx + pt[1] * ny; lo = Math.min(lo, v); hi = Math.max(hi, v); }); return [lo, hi]; };
        var u = project(p), w = project(q);
        if (Math.min(u[1], w[1]) - Math.max(u[0], w[0]) <= slack) return false;
      }
    }
    return true;
  }
  var result = [];
  document.querySelectorAll("figure").forEach(function (figure) {
    var svg = figure.querySelector("svg");
    if (!svg) return;
    var frame = svg.getBoundingClientRect();
    var texts = Array.prototype.slice.call(svg.querySelectorAll("text")).filter(function (t) { return t.textContent.trim() !== "" && !hidden(t); })
      .map(function (t) { return { text: roleOf(t) + ": " + t.textContent.trim(), role: roleOf(t), box: t.getBoundingClientRect(), quad: quadOf(t) }; });
    var overlaps = [];
    for (var i = 0; i < texts.length; i++) for (var j = i + 1; j < texts.length; j++) if (meets(texts[i].box, texts[j].box, 1) && quadsMeet(texts[i].quad, texts[j].quad, 1)) overlaps.push([texts[i].text, texts[j].text]);
    var clipped = texts.filter(function (t) { return !within(t.box, frame, 1); }).map(function (t) { return t.text; });
    // A data mark's panel: the nearest item of a scope group (a facet's cell, a layer's path group) that carries
    // its background; the mark within it, a symbol's half-size of slack.
    function panelOf(node) {
      for (var el = node.parentNode; el && el !== svg; el = el.parentNode) {
        var parent = el.parentNode;
        if (parent && parent.getAttribute && /role-scope/.test(parent.getAttribute("class") || "")) {
          var background = el.querySelector(":scope > path.background");
          if (background) return background.getBoundingClientRect();
        }
      }
      return null;
    }
    var outside = [];
    svg.querySelectorAll("g.role-mark > path, g.role-mark > line, g.role-mark > rect").forEach(function (mark) {
      if (hidden(mark)) return;
      var box = mark.getBoundingClientRect();
      if (box.width === 0 && box.height === 0) return;
      var panel = panelOf(mark);
      if (panel && !within(box, panel, 6)) outside.push((mark.parentNode.getAttribute("class") || "").replace(/mark-| role-mark/g, "") + " at " + Math.round(box.left - frame.left) + "," + Math.round(box.top - frame.top) + " in " + Math.round(panel.left - frame.left) + "," + Math.round(panel.top - frame.top) + "+" + Math.round(panel.width) + "x" + Math.round(panel.height));
    });
    var headers = texts.filter(function (t) { return /-header$/.test(t.role); }).map(function (t) { return t.text.replace(/^[^:]*: /, ""); });
    result.push({ id: figure.id, overlaps: overlaps, clipped: clipped, outside: outside.slice(0, 20), headers: headers });
  });
  var pre = document.createElement("pre");
  pre.id = "geometry";
  pre.textContent = JSON.stringify(result);
  document.body.appendChild(pre);
})();
`;

/** The report page's figures as Chromium lays them out at `width` px, and what the console logged. */
export function figureGeometry(page: string, width = 1200): { readonly figures: FigureGeometry[]; readonly log: string; readonly dom: string } {
  const copy = `${page}.measure.html`;
  writeFileSync(copy, readFileSync(page, "utf8").replace("</body>", `<script>${MEASURE}</script></body>`));
  const { dom, log } = chromiumDom(copy, width);
  const json = /<pre id="geometry">([\s\S]*?)<\/pre>/.exec(dom)?.[1];
  if (json === undefined) throw new Error(`no geometry from Chromium: ${log.slice(-400)}`);
  const decoded = json.replace(/&quot;/g, '"').replace(/&lt;/g, "<").replace(/&gt;/g, ">").replace(/&amp;/g, "&");
  return { figures: JSON.parse(decoded) as FigureGeometry[], log, dom };
}
