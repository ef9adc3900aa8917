import { fdlibmPow } from "../math/fdlibm-pow.js";
import { newFloat64Array, ScratchArray, type Float64Allocator } from "../math/scratch-array.js";
import { drawsOf, type Draws, type NormalSource } from "../random/random-draws.js";
import { flipLabels } from "./label-noise.js";
import type { Uniform } from "../random/seeded-random.js";
import type { DataSet } from "../vocabulary/data-set.js";
import type { GeneratorEntry, GridProblem } from "./generator-entry.js";
import { plantedRows, type PlantedRows } from "./planted-rows.js";
import { plantedDrawWasm } from "./planted-draw.js";
import { beyondSeparable } from "../vocabulary/point-parameters.js";
import { EXPERIMENT_DEFAULTS } from "../vocabulary/experiment-defaults.js";
import { smallFloat64Array, smallInt8Array } from "../math/small-arrays.js";

export interface PlantedParameters {
  readonly n: number;
  readonly d: number;
  /** γ: every point lies at distance ≥ γ from the hyperplane, two of them at exactly γ. */
  readonly margin: number;
  /** R: every point has ‖x‖ ≤ R, the two support points exactly R (when d ≥ 2). */
  readonly radius: number;
  /** b of the hyperplane w·x + b = 0; needs |b| + γ < R. */
  readonly offset: number;
  /** The probability that each label is flipped after the points are placed (default 0). */
  readonly noise?: number;
  /** δ: points other than the support pair may lie up to δ deep on the wrong side (default 0); needs |b| + δ < R. */
  readonly overlap?: number;
}

/**
 * The planted family of docs/theory.md ("Generators with exact control"), in the input space.
 *
 * A unit normal w (a normalised Gaussian) and the hyperplane w·x + b = 0. Each point is placed directly,
 * with no rejection sampling:
 *  - its label y (points 0 and 1 are +1 and −1, the rest fair coin flips);
 *  - its distance t = y(w·x + b): γ for points 0 and 1, otherwise uniform on [γ, R + y b], the largest
 *    distance at which a point of that label still fits in the ball of radius R;
 *  - its component along w, a = w·x = y t − b, so |a| ≤ R;
 *  - the rest of x, orthogonal to w, of norm ρ ≤ √(R² − a²): ρ = √(R² − a²) U^(1/(d−1)) (a uniform
 *    radius in d − 1 dimensions) in a uniformly random direction.
 * Points 0 and 1 are the support pair: distance exactly γ and norm exactly R (ρ = √(R² − a²)), both
 * along the same unit vector v₀ ⊥ w. The rows are then shuffled: u₊ + u₋ = 2γ(w, 0) is the planted
 * direction itself, so a support pair always presented first would end every cyclic run from ŵ(0) = 0
 * after two updates. For b = 0 they are u± = γ w ± √(R² − γ²) v₀, which makes w the
 * max-margin direction of a learner without bias (KKT: w ∝ u₊ + u₋). In d = 1 there is no room
 * orthogonal to w and the radius is max |a| < R; the learner's radius is always measured on the data.
 */
/**
 * Data version 1 places points as above; data version 2 draws the same distribution with less work (no
 * pow, no shuffle: see placeVersion2). A bare Uniform draws as version 1. The points x are written, every
 * value, into `allocate(n·d)`.
 */
export function generatePlanted(params: PlantedParameters, source: Uniform | Draws, allocate: Float64Allocator = newFloat64Array): DataSet {
  const draws = drawsOf(source);
  const x = allocate(params.n * params.d);
  const data = draws.version === 1 ? placeVersion1(params, draws, x) : placeVersion2(params, draws, x);
  flipLabels(data.y, params.noise ?? 0, draws.uniform);
  return data;
}

/**
 * Beyond separable data (docs/theory.md): with overlap δ > 0 a point's signed distance t = y(w·x + b) is
 * uniform on [−δ, 0) ∪ [γ, t_max] (lengths δ and t_max − γ) instead of on [γ, t_max]: some points lie on
 * the wrong side, at most δ deep, and none in the empty band (0, γ) the margin keeps. One uniform, as
 * without overlap: s = U·(t_max − γ + δ), t = s − δ below δ, else γ + (s − δ); at δ = 0 that is γ + U·(t_max − γ),
 * the separable law to the bit.
 */
function distance(gamma: number, tMax: number, overlap: number, uniform: number): number {
  const s = uniform * (tMax - gamma + overlap);
  return s < overlap ? s - overlap : gamma + (s - overlap);
}

/** Data version 1's construction: the support pair first, then the rows shuffled; ρ by fdlibmPow. */
function placeVersion1(params: PlantedParameters, { uniform, normal }: Draws, x: Float64Array): DataSet {
  const { n, d, margin: gamma, radius: r, offset: b } = params;
  const overlap = params.overlap ?? 0;
  const w = randomUnitVector(d, normal);
  const v0 = smallFloat64Array(d);
  if (d >= 2) orthogonalUnitVector(w, normal, v0);
  const direction = smallFloat64Array(d);
  const y = smallInt8Array(n);

  for (let i = 0; i < n; i++) {
    const label = i === 0 ? 1 : i === 1 ? -1 : uniform() < 0.5 ? 1 : -1;
    const support = i < 2;
    const tMax = r + label * b;
    const t = support ? gamma : distance(gamma, tMax, overlap, uniform());
    const along = label * t - b;
    const room = Math.sqrt(Math.max(0, r * r - along * along));
    let rho = 0;
    if (d >= 2) {
      if (support) {
        rho = room;
        direction.set(v0);
      } else {
        // fdlibmPow, not Math.pow: engines differ in its last bit (docs/theory.md, "Data versions")
        rho = room * fdlibmPow(uniform(), 1 / (d - 1));
        orthogonalUnitVector(w, normal, direction);
      }
    }
    const row = i * d;
    for (let j = 0; j < d; j++) x[row + j] = along * w[j]! + rho * direction[j]!;
    y[i] = label;
  }
  shuffleRows(x, y, d, uniform);
  return { n, d, x, y, planted: { w, b } };
}

/**
 * Data version 2's construction: the same distribution as version 1's, drawn with less work.
 *  - No shuffle: the support pair goes to two distinct uniformly random rows (p₊ for +1, p₋ for −1) and
 *    every other row is drawn in place; the other points are independent and identically distributed, so
 *    permuting them changes nothing, and the pair's rows are what the shuffle randomised.
 *  - No pow: a uniform point in the (d − 1)-ball orthogonal to w, scaled to the room √(R² − a²), is the
 *    first d − 1 coordinates of a uniform point on the sphere S^d of R^(d+1) (Voelker, Gosmann and
 *    Stewart, 2017): d normals projected orthogonal to w (a standard normal vector of that subspace), two
 *    more normals, and z_⊥ / √(‖z_⊥‖² + e₁² + e₂²). Written straight into the point's row.
 * The draws, in this order (they define the version): w (d normals), v₀ (d normals, again while too
 * parallel to w), the rows of the pair (two uniforms), every row's d normals (n·d, row by row, into x),
 * two more normals a row (2n), then row by row its label (a uniform, not for the pair) and its distance
 * (a uniform, not for the pair). With d = 1 there are no normals after w.
 */
function placeVersion2(params: PlantedParameters, { uniform, normal, generator }: Draws, x: Float64Array): DataSet {
  const { n, d, margin: gamma, radius: r, offset: b } = params;
  const overlap = params.overlap ?? 0;
  // The same draws and points in the WebAssembly module, where it runs (planted-draw.ts).
  const drawn = generator === undefined ? null : plantedDrawWasm(generator, x, n, d, gamma, r, b, overlap);
  if (drawn !== null) return { n, d, x, y: drawn.y, planted: { w: drawn.w, b } };
  const w = randomUnitVector(d, normal);
  const v0 = smallFloat64Array(d);
  if (d >= 2) orthogonalUnitVector(w, normal, v0);
  const y = smallInt8Array(n);
  const positive = Math.floor(uniform() * n);
  let negative = Math.floor(uniform() * (n - 1));
  if (negative >= positive) negative++;
  // Every row's normals first, in two calls (the rows' d in place, then two more a row; a call per row
  // cost more than a small row's draws), then each row's z·w and ‖z‖² (before any row is placed), then row
  // by row its label, its distance and its point's two coefficients, and last the points (plantedRows).
  let extra = EMPTY;
  let rows: PlantedRows | null = null;
  if (d >= 2) {
    normal.fill(x);
    extra = EXTRA.of(2 * n);
    normal.fill(extra, 0, 2 * n);
    rows = plantedRows(x, n, d, w);
  }
  // The support pair's component along w and room, for their rows once the others are placed.
  const along = [0, 0];
  const rooms = [0, 0];
  for (let i = 0; i < n; i++) {
    const support = i === positive || i === negative;
    const label = i === positive ? 1 : i === negative ? -1 : uniform() < 0.5 ? 1 : -1;
    const t = support ? gamma : distance(gamma, r + label * b, overlap, uniform());
    const a = label * t - b;
    const room = Math.sqrt(Math.max(0, r * r - a * a));
    y[i] = label;
    if (rows === null) {
      x[i] = a * w[0]!;
      continue;
    }
    if (support) {
      along[i === positive ? 0 : 1] = a;
      rooms[i === positive ? 0 : 1] = room;
      continue;
    }
    // ‖z_⊥‖² = ‖z‖² − (z·w)² (w is a unit vector), and x = a w + s (z − (z·w) w) = (a − s z·w) w + s z.
    const dot = rows.dots[i]!;
    const e1 = extra[2 * i]!;
    const e2 = extra[2 * i + 1]!;
    const norm2 = Math.max(0, rows.squares[i]! - dot * dot) + e1 * e1 + e2 * e2;
    const scale = norm2 > 0 ? room / Math.sqrt(norm2) : 0;
    rows.bases[i] = a - scale * dot;
    rows.scales[i] = scale;
  }
  if (rows !== null) {
    // Every row placed, the pair's too from whatever their coefficients were; then the pair's rows are written.
    rows.place();
    for (let k = 0; k < 2; k++) {
      const row = (k === 0 ? positive : negative) * d;
      for (let j = 0; j < d; j++) x[row + j] = along[k]! * w[j]! + rooms[k]! * v0[j]!;
    }
  }
  return { n, d, x, y, planted: { w, b } };
}

const EMPTY: Float64Array = new Float64Array(0);
/** The two extra normals a row of placeVersion2. */
const EXTRA = new ScratchArray();

/** Fisher–Yates over the points (rows of x with their labels). */
function shuffleRows(x: Float64Array, y: Int8Array, d: number, uniform: Uniform): void {
  for (let i = y.length - 1; i > 0; i--) {
    const j = Math.floor(uniform() * (i + 1));
    if (j === i) continue;
    // Swapped value by value: subarray views would allocate two objects per swap.
    for (let k = 0, a = i * d, b = j * d; k < d; k++, a++, b++) {
      const value = x[a]!;
      x[a] = x[b]!;
      x[b] = value;
    }
    const label = y[i]!;
    y[i] = y[j]!;
    y[j] = label;
  }
}

function randomUnitVector(d: number, normal: NormalSource): Float64Array {
  const v = smallFloat64Array(d);
  let norm2 = 0;
  while (norm2 === 0) {
    normal.fill(v);
    norm2 = 0;
    for (let j = 0; j < d; j++) norm2 += v[j]! * v[j]!;
  }
  const inv = 1 / Math.sqrt(norm2);
  for (let j = 0; j < d; j++) v[j]! *= inv;
  return v;
}

/** A uniformly random unit vector orthogonal to the unit vector w (d ≥ 2), written into `out`. */
function orthogonalUnitVector(w: Float64Array, normal: NormalSource, out: Float64Array): void {
  const d = w.length;
  for (;;) {
    normal.fill(out);
    let dot = 0;
    for (let j = 0; j < d; j++) dot += out[j]! * w[j]!;
    let norm2 = 0;
    for (let j = 0; j < d; j++) {
      out[j]! -= dot * w[j]!;
      norm2 += out[j]! * out[j]!;
    }
    // A draw almost parallel to w leaves too little to normalise accurately: draw again.
    if (norm2 > 1e-12) {
      const inv = 1 / Math.sqrt(norm2);
      for (let j = 0; j < d; j++) out[j]! *= inv;
      return;
    }
  }
}

/**
 * The smallest planted margin, relative to the radius, that float64 can realise: a point's distance to the
 * hyperplane carries a rounding error of about 1e-15 × R, so below this the planted margin is no longer
 * the one asked for (at 1e-300 the points even fall on the wrong side, and the data are not separable).
 */
export const MIN_MARGIN_TO_RADIUS = 1e-12;

/** The planted family as the pipeline knows it (docs/theory.md, "Generators with exact control"). */
export const plantedGenerator = {
  name: "planted",
  description: "points placed at distance ≥ margin from a random hyperplane w·x + offset = 0 inside the ball of radius R, with label noise or overlap on request",
  required: ["n", "d", "margin"],
  keyNotes: { margin: "Planted margin γ in the input space (distance of the closest points to the hyperplane)" },
  marginMeaning: "planted, the planted margin",
  keys: ["margin", "radius", "offset", "noise", "overlap"],
  keyDefaults: { noise: EXPERIMENT_DEFAULTS.noise },
  sized: true,
  seeded: true,
  defaultBias: true,
  *shapes(grid) {
    for (const n of grid.n!) for (const d of grid.d!) yield { data: null, n, d };
  },
  gridProblems(grid) {
    const problems: GridProblem[] = [];
    const largestRadius = Math.max(...grid.radius);
    const smallestMargin = Math.min(...grid.margin!);
    const radiusText = grid.radius.length > 1 ? `the largest radius ${largestRadius}` : `radius ${largestRadius}`;
    grid.margin!.forEach((margin, index) => {
      if (margin >= largestRadius) problems.push({ key: "margin", index, message: `${margin} must be smaller than ${radiusText}` });
    });
    grid.offset.forEach((offset, index) => {
      if (Math.abs(offset) + smallestMargin >= largestRadius) {
        const marginText = grid.margin!.length > 1 ? `the smallest margin ${smallestMargin}` : `margin ${smallestMargin}`;
        problems.push({ key: "offset", index, message: `${offset} is too large: |offset| + ${marginText} must be smaller than ${radiusText}` });
      }
    });
    const smallestOffset = Math.min(...grid.offset.map(Math.abs));
    grid.overlap.forEach((overlap, index) => {
      if (smallestOffset + overlap >= largestRadius) {
        const offsetText = grid.offset.length > 1 ? `the smallest |offset| ${smallestOffset}` : `|offset| ${smallestOffset}`;
        problems.push({ key: "overlap", index, message: `${overlap} is too large: ${offsetText} + overlap must be smaller than ${radiusText}` });
      }
    });
    return problems;
  },
  exclusionReason(p) {
    if (p.margin! >= p.radius!) return "planted: margin must be smaller than radius";
    if (p.margin! < MIN_MARGIN_TO_RADIUS * p.radius!) return `planted: margin must be at least ${MIN_MARGIN_TO_RADIUS} × radius (float64 places points to about 1e-15 × radius)`;
    if (Math.abs(p.offset!) + p.margin! >= p.radius!) return "planted: |offset| + margin must be smaller than radius";
    if (!p.bias && p.offset !== 0) return "planted: offset must be 0 without a bias";
    if (Math.abs(p.offset!) + p.overlap! >= p.radius!) return "planted: |offset| + overlap must be smaller than radius";
    return null;
  },
  // Noise and overlap do not enter: runs that differ only in them draw the same uniforms (see runSeed).
  dataParameters: (p) => ({ generator: p.generator, n: p.n, d: p.d, margin: p.margin, radius: p.radius, offset: p.offset }),
  generate: (p, source, _dataSets, allocate) =>
    generatePlanted({ n: p.n, d: p.d, margin: p.margin!, radius: p.radius!, offset: p.offset!, noise: p.noise ?? 0, overlap: p.overlap ?? 0 }, source, allocate),
  expectedUpdates: () => null,
  tight: false,
  resident: true,
  epochsGuess(p, maxEpochs) {
    // Label noise or overlap usually leave the data not separable: the run goes to maxEpochs, and is then
    // replayed for its pocket error (twice the epochs).
    if (beyondSeparable(p)) return 2 * maxEpochs;
    // (R̂/γ̂)² = ((R/γ)² + [bias]/γ²)·(1 + b²) (docs/theory.md, "Generators"), as ratios: squaring R and γ first
    // overflows to Infinity/Infinity = NaN beyond ~1e154, and a NaN cost would batch no run at all.
    const ratio = p.radius! / p.margin!;
    const bound = (ratio * ratio + (p.bias ? 1 / p.margin! ** 2 : 0)) * (p.bias ? 1 + p.offset! ** 2 : 1);
    return Number.isNaN(bound) ? maxEpochs : Math.min(maxEpochs, 1 + bound);
  },
  epochsTypical(p, maxEpochs) {
    // Measured (126 points, n 20–500, d 2–50, margins 0.005–0.5): a run's epochs are nearer √(R̂/γ̂)² than
    // (R̂/γ̂)² (γ 0.005: 178–721 epochs against a bound of 80 000); the cut-off runs of non-separable data as before.
    const guess = this.epochsGuess(p, maxEpochs);
    return beyondSeparable(p) ? guess : Math.min(maxEpochs, Math.sqrt(guess));
  },
  plotFamily: "planted",
} satisfies GeneratorEntry;
