import { addUp, divDown, divUp, mulDown, mulUp, sqrtUp, subDown, UNIT } from "../math/outward-rounding.js";
import type { LearnerData } from "../perceptron/learner-data.js";
import { rowDotsAndAbsolutesTypeScript, rowDotsTypeScript } from "../perceptron/row-passes.js";
import { separatorMargin } from "./separator-margin.js";
import { updatesFromChecked } from "./updates-from.js";
import { bestFirstPhase, MAX_BEST_FIRST_PROMISE } from "./worst-order-best-first.js";
import { greedyOrder } from "./worst-order-greedy.js";

export { updatesFrom } from "./updates-from.js";

/**
 * The most updates any presentation order can make (docs/theory.md, "The worst order"): W*. From ŵ(0) with
 * step η, after c_i updates on point i the weight is ŵ(0) + η Σ c_i u_i whatever the order that reached it,
 * so the state is the count vector c; point i can be updated at c iff ŵ(c)·u_i ≤ 0 (the tool's mistake rule),
 * and W* is the longest path of that finite graph (finite wherever a separator exists).
 *
 * The search has two phases. The first is depth-first over count vectors, with every state's result kept
 * under its exact integer counts (never float weights), margins ŵ(c)·u_i carried from parent to child by a
 * row of the Gram matrix, children tried from the most promising, and a branch cut where its depth plus a
 * proved bound on the updates still to come from its ŵ(c) (Novikoff's argument from ŵ(c) as a new start, for
 * every known separator) cannot beat the longest order found: it finds long orders. The second, with the rest
 * of the budget, is best-first by that same depth plus bound (worst-order-best-first.ts): it proves the
 * longest found longest, or lowers the proved upper end as far as the budget allows. A node budget keeps a
 * run's cost predictable: where it runs out, the result is a bracket, the longest order found below and the
 * largest proved bound left above.
 */
export interface WorstOrder {
  /** "exact": lower = upper = W*; "bracket": lower ≤ W* ≤ upper. */
  readonly status: "exact" | "bracket";
  /** The updates of the longest order found (W* when exact). */
  readonly lower: number;
  /** A proved upper bound on W* (W* when exact). */
  readonly upper: number;
  /** The states with a mistake whose children were explored (a state cut under one incumbent and met again deeper may be expanded again). */
  readonly nodes: number;
  /** The longest order found, as the points updated in turn: presented in this order, the perceptron makes exactly `lower` updates. */
  readonly order: Int32Array;
}

export interface WorstOrderOptions {
  readonly eta: number;
  readonly initialWeights: Float64Array;
  /** Separators of the data (any scale); those not proved to separate are left out. At least one must separate. */
  readonly separators: readonly (Float64Array | null)[];
  /** The most states the search expands, both phases together (default DEFAULT_WORST_ORDER_BUDGET). */
  readonly budget?: number;
  /** The most of them the first, depth-first phase expands (default a tenth of the budget); the rest go to the best-first phase. */
  readonly depthFirstBudget?: number;
}

/** The default node budget a run: about a second of CPU at most; at planted n 20, d 5, margin 0.1 it proves W* in 8 of 20 runs and brackets the rest (docs/benchmarks.md). */
export const DEFAULT_WORST_ORDER_BUDGET = 300_000;

/**
 * The deepest state the search expands: it recurses once a level, and a thread's stack holds about 4 000 of its
 * frames (three-point at c = 100, W* = 5 001, overflowed). Deeper, a state's proved bound stands for it (a bracket).
 */
export const MAX_WORST_ORDER_DEPTH = 2_000;

/** A count a state may hold at most: counts are kept as UTF-16 code units in the state's key. */
const MAX_COUNT = 0xffff;

/**
 * The depth-first phase's share of the budget. It finds the long orders (the incumbent: 20 000 states found within a
 * few updates of W* at planted n 20, d 5, margin 0.1); the best-first phase then proves, or brackets, from above.
 */
const DEPTH_FIRST_SHARE = 0.1;

/** What the pruning bound needs of one separator v, in the learner's coordinates. */
interface Certificate {
  /** A lower end of g = min_i v·u_i (> 0). */
  readonly g: number;
  /** An upper end of ‖v‖². */
  readonly norm: number;
  /** v·u_j of every row (float), and Σ_l |v_l u_jl| (their error scale). */
  readonly along: Float64Array;
  readonly alongAbs: Float64Array;
  /** v·ŵ(0), and Σ_l |v_l ŵ(0)_l|. */
  readonly start: number;
  readonly startAbs: number;
}

/** W* of the data from ŵ(0), or null where no separator is proved to separate (then W* may be infinite). */
export function worstOrder(data: LearnerData, options: WorstOrderOptions): WorstOrder | null {
  const { n, dim, u } = data;
  const { eta, initialWeights: w0 } = options;
  const budget = options.budget ?? DEFAULT_WORST_ORDER_BUDGET;
  const depthFirstBudget = Math.min(budget, options.depthFirstBudget ?? Math.ceil(budget * DEPTH_FIRST_SHARE));
  const certificates = options.separators.flatMap((v) => (v === null ? [] : certificateOf(data, v, w0)));
  if (certificates.length === 0) return null;
  if (!(eta > 0) || !Number.isFinite(eta)) throw new RangeError(`η must be a positive number, got ${eta}`);

  // The Gram matrix G_ij = u_i·u_j (row i: what an update on i adds to every margin, over η), ‖u_i‖², and the
  // margins of ŵ(0).
  const gram = new Float64Array(n * n);
  const squares = new Float64Array(n);
  for (let i = 0; i < n; i++) {
    for (let j = i; j < n; j++) {
      let dot = 0;
      for (let l = 0; l < dim; l++) dot += u[i * dim + l]! * u[j * dim + l]!;
      gram[i * n + j] = dot;
      gram[j * n + i] = dot;
    }
    squares[i] = gram[i * n + i]!;
  }
  // A float sum of squares over dim terms, padded to an upper end.
  const squareUp = (square: number) => mulUp(square, 1 + (dim + 4) * 2 * UNIT);
  // M = max ‖u_i‖².
  const radiusSquared = squareUp(Math.max(data.radiusSquared, ...squares));
  // ‖u_i‖, ‖ŵ(0)‖ and R up: the scale of a margin's float error (see stepSquareUp).
  const squaresUp = squares.map(squareUp);
  const rowNormsUp = squaresUp.map(sqrtUp);
  let startSquare = 0;
  for (let l = 0; l < dim; l++) startSquare += w0[l]! * w0[l]!;
  const startNormUp = sqrtUp(squareUp(startSquare));
  const radiusUp = sqrtUp(radiusSquared);
  const etaSquareUp = mulUp(eta, eta);
  const etaSquareDown = mulDown(eta, eta);
  // The margins of ŵ(0), each summed as the perceptron sums it.
  const rootMargins = new Float64Array(n);
  rowDotsTypeScript(u, n, dim, w0, rootMargins);

  // Per depth: the margins ŵ(c)·u_i, v·ŵ(c) for each certificate, and the children's order (reused scratch).
  const marginsAt: Float64Array[] = [rootMargins];
  const alongAt: Float64Array[] = [Float64Array.from(certificates, (c) => c.start)];
  const alongAbsAt: Float64Array[] = [Float64Array.from(certificates, (c) => c.startAbs)];
  const squareAt: number[] = [];
  const childrenAt: Int32Array[] = [];
  const childBoundsAt: Float64Array[] = [];
  const counts = new Int32Array(n);
  const path: number[] = [];
  // Each expanded state: upper bound × 2¹⁷ + (best child + 1) × 2 + exact (exact: the bound is W*(c) itself).
  const memo = new Map<string, number>();
  let nodes = 0;
  let best = -1;
  let bestOrder: Int32Array = new Int32Array(0);
  let exhausted = false;

  /** A proved bound on the updates still to come from the state at `depth` whose ‖ŵ(c)‖² has upper end sHi. */
  const remainingBound = (depth: number, sHi: number, along = alongAt[depth]!, alongAbs = alongAbsAt[depth]!): number => {
    // The float sums behind v·ŵ(c) and ‖ŵ(c)‖² carry at most (depth + dim + 4)·2u of their absolute sums.
    const relative = (depth + dim + 4) * 2 * UNIT;
    let smallest = Infinity;
    for (let k = 0; k < certificates.length; k++) {
      const c = certificates[k]!;
      const aLo = subDown(along[k]!, mulUp(relative, alongAbs[k]!));
      smallest = Math.min(smallest, updatesFromChecked(divDown(aLo, eta), divUp(sHi, etaSquareDown), c.g, c.norm, radiusSquared));
    }
    return smallest;
  };

  /**
   * The same bound in plain float64, unrounded: what orders the children (an order needs no proof). Rounding
   * outward every operation of every child's bound was most of a state's time.
   */
  const remainingEstimate = (depth: number, s: number): number => {
    const along = alongAt[depth]!;
    let smallest = Infinity;
    for (let k = 0; k < certificates.length; k++) {
      const c = certificates[k]!;
      const A = along[k]! / eta;
      const L = c.norm * radiusSquared - 2 * c.g * A;
      const C = Math.max(0, (c.norm * s) / (eta * eta) - A * A);
      smallest = Math.min(smallest, (L + Math.sqrt(L * L + 4 * c.g * c.g * C)) / (2 * c.g * c.g));
    }
    return smallest;
  };

  /** The state's ‖ŵ(c)‖² upper end, from ŵ(c) summed afresh: ŵ(0) + η Σ c_i u_i (O(n·dim); the root's, whence the children's are carried). */
  const weightSquareUp = (): number => {
    let square = 0;
    for (let l = 0; l < dim; l++) {
      let w = w0[l]!;
      let wAbs = Math.abs(w);
      let terms = 0;
      for (let i = 0; i < n; i++) {
        const c = counts[i]!;
        if (c !== 0) {
          const step = eta * c * u[i * dim + l]!;
          w += step;
          wAbs += Math.abs(step);
          terms++;
        }
      }
      // |ŵ_l| up: the sum's error is at most (terms + 2)·u of its absolute sum (each step η·c·u a product of two roundings).
      const hi = addUp(Math.abs(w), mulUp((terms + 4) * 2 * UNIT, wAbs));
      square = addUp(square, mulUp(hi, hi));
    }
    return square;
  };

  /**
   * ‖ŵ(c + e_i)‖² up from ‖ŵ(c)‖² up at `depth`: + 2η ŵ(c)·u_i + η²‖u_i‖², the margin taken at its upper end.
   * A margin carried through `depth` Gram rows errs by at most (depth + dim + 4)·2u·‖u_i‖(‖ŵ(0)‖ + η·depth·R).
   */
  const stepSquareUp = (depth: number, i: number, square = squareAt[depth]!, margin = marginsAt[depth]![i]!): number => {
    const scale = mulUp(rowNormsUp[i]!, addUp(startNormUp, mulUp(eta * (depth + 1), radiusUp)));
    const marginUp = addUp(margin, mulUp((depth + dim + 4) * 2 * UNIT, scale));
    return addUp(square, addUp(mulUp(2 * eta, marginUp), mulUp(etaSquareUp, squaresUp[i]!)));
  };

  /** v·ŵ(c + e_i) for each certificate (and its error scale), at depth + 1. */
  const stepAlong = (depth: number, i: number): void => {
    const next = alongAt[depth + 1]!;
    const nextAbs = alongAbsAt[depth + 1]!;
    for (let c = 0; c < certificates.length; c++) {
      next[c] = alongAt[depth]![c]! + eta * certificates[c]!.along[i]!;
      nextAbs[c] = alongAbsAt[depth]![c]! + eta * certificates[c]!.alongAbs[i]!;
    }
  };

  const keyOf = (): string => String.fromCharCode.apply(null, counts as unknown as number[]);

  const record = (depth: number, tail: readonly number[]): void => {
    if (depth + tail.length <= best) return;
    best = depth + tail.length;
    bestOrder = Int32Array.from([...path, ...tail]);
  };

  /** The rest of the longest order from the current state, following the kept best children (exact states only). */
  const bestTail = (): number[] => {
    const tail: number[] = [];
    const taken: number[] = [];
    for (;;) {
      const entry = memo.get(keyOf());
      const next = entry === undefined ? -1 : Math.floor((entry % 2 ** 17) / 2) - 1;
      if (next < 0) break;
      tail.push(next);
      taken.push(next);
      counts[next]!++;
    }
    for (const i of taken) counts[i]!--;
    return tail;
  };

  /** Explores the state of the current counts at `depth`; returns its upper bound and whether it is W*(c). */
  const explore = (depth: number): { bound: number; exact: boolean } => {
    const key = keyOf();
    const known = memo.get(key);
    if (known !== undefined) {
      const bound = Math.floor(known / 2 ** 17);
      const exact = known % 2 === 1;
      if (exact && depth + bound > best) record(depth, bestTail());
      // A state cut below an earlier incumbent, met again deeper, may hold a longer order: expanded again.
      if (exact || exhausted || depth + bound <= best) return { bound, exact };
    }
    const margins = marginsAt[depth]!;
    let mistakes = 0;
    for (let i = 0; i < n; i++) if (!(margins[i]! > 0)) mistakes++;
    if (mistakes === 0) {
      memo.set(key, 1);
      if (depth > best) record(depth, []);
      return { bound: 0, exact: true };
    }
    const here = remainingBound(depth, squareAt[depth]!);
    if (exhausted || nodes >= depthFirstBudget || depth >= MAX_WORST_ORDER_DEPTH || depth + here <= best) {
      // Out of budget, or cut: this state's proved bound stands for it (not kept: a later, deeper incumbent
      // may want it explored).
      if (nodes >= depthFirstBudget) exhausted = true;
      return { bound: here, exact: false };
    }
    nodes++;
    // Children: every mistaken point, the one with the largest bound after its update first (ties: the
    // most violated). Their margins are the parent's plus η times the point's Gram row.
    const next = (marginsAt[depth + 1] ??= new Float64Array(n));
    alongAt[depth + 1] ??= new Float64Array(certificates.length);
    alongAbsAt[depth + 1] ??= new Float64Array(certificates.length);
    const children = (childrenAt[depth] ??= new Int32Array(n));
    const childBounds = (childBoundsAt[depth] ??= new Float64Array(n));
    let count = 0;
    for (let i = 0; i < n; i++) {
      if (margins[i]! > 0) continue;
      if (counts[i]! >= MAX_COUNT) {
        exhausted = true;
        return { bound: here, exact: false };
      }
      children[count] = i;
      childBounds[i] = -margins[i]!;
      count++;
    }
    // The children's bounds need ŵ(c + e_i): cheap enough per child through the certificates' rows.
    for (let k = 0; k < count; k++) {
      const i = children[k]!;
      stepAlong(depth, i);
      // Largest bound first, the most violated first among equal ones (the bound's floor keeps ties ties).
      childBounds[i] = Math.floor(remainingEstimate(depth + 1, squareAt[depth]! + 2 * eta * margins[i]! + eta * eta * squares[i]!)) * (n + 1) + childBounds[i]! / (Math.abs(childBounds[i]!) + 1);
    }
    const order = Array.from(children.subarray(0, count)).sort((a, b) => childBounds[b]! - childBounds[a]!);
    let bound = 0;
    let exact = true;
    let bestChild = -1;
    let bestExact = -1;
    for (const i of order) {
      const row = i * n;
      for (let j = 0; j < n; j++) next[j] = margins[j]! + eta * gram[row + j]!;
      stepAlong(depth, i);
      squareAt[depth + 1] = stepSquareUp(depth, i);
      counts[i]!++;
      path.push(i);
      const child = explore(depth + 1);
      path.pop();
      counts[i]!--;
      if (1 + child.bound > bound) bound = 1 + child.bound;
      if (child.exact) {
        if (1 + child.bound > bestExact) {
          bestExact = 1 + child.bound;
          bestChild = i;
        }
      } else exact = false;
      // The next level's arrays were overwritten by the child's own children: restore them for the next sibling.
    }
    // Exact when the best exact child reaches the largest bound of any child (a cut child's bound is below it).
    if (!exact && bestExact >= bound) exact = true;
    if (exact) bound = bestExact;
    bound = Math.min(bound, Math.floor(here));
    memo.set(key, bound * 2 ** 17 + (exact ? (bestChild + 1) * 2 + 1 : 0));
    return { bound, exact };
  };

  // Seed the incumbent with the greedy orders (each a lower bound on W*), so that the cuts start early.
  // None is longer than the root's proved bound.
  squareAt[0] = weightSquareUp();
  const longest = remainingBound(0, squareAt[0]);
  for (const rule of ["most-violated", "least-progress", "cyclic"] as const) {
    const greedy = greedyOrder(n, eta, rule, certificates[0]!.along, gram, rootMargins, longest);
    if (greedy !== null && greedy.length > best) {
      best = greedy.length;
      bestOrder = greedy;
    }
  }
  const root = explore(0);
  if (root.exact) {
    // The longest order, along the kept best children: W* updates.
    const order = Int32Array.from(bestTail());
    if (order.length !== root.bound) throw new Error(`the worst order's search lost its path: ${order.length} updates kept, W* = ${root.bound}`);
    return { status: "exact", lower: root.bound, upper: root.bound, nodes, order };
  }
  const upper = Math.max(root.bound, best);
  if (upper === best) return { status: "exact", lower: best, upper, nodes, order: bestOrder };
  // The rest of the budget goes to the best-first phase, from the root again with the depth-first incumbent.
  const rootPromise = Math.floor(longest);
  if (budget <= nodes || rootPromise > MAX_BEST_FIRST_PROMISE) return { status: "bracket", lower: best, upper, nodes, order: bestOrder };
  const second = bestFirstPhase({
    n,
    eta,
    gram,
    rootMargins,
    along: certificates.map((c) => c.along),
    alongAbs: certificates.map((c) => c.alongAbs),
    start: Float64Array.from(certificates, (c) => c.start),
    startAbs: Float64Array.from(certificates, (c) => c.startAbs),
    rootSquare: squareAt[0],
    rootPromise,
    bound: remainingBound,
    stepSquare: stepSquareUp,
    best: bestOrder,
    budget: budget - nodes,
    maxCount: MAX_COUNT,
  });
  const bound = Math.min(upper, second.upper);
  return { status: second.exact ? "exact" : "bracket", lower: second.best.length, upper: second.exact ? second.best.length : bound, nodes: nodes + second.expanded, order: second.best };
}

/** The pruning bound's facts about a separator, or nothing where it is not proved to separate. */
function certificateOf(data: LearnerData, v: Float64Array, w0: Float64Array): Certificate[] {
  const { a, s } = separatorMargin(data, v);
  if (!(a.lo > 0)) return [];
  const { n, dim, u } = data;
  const along = new Float64Array(n);
  const alongAbs = new Float64Array(n);
  rowDotsAndAbsolutesTypeScript(u, n, dim, v, along, alongAbs);
  let start = 0;
  let startAbs = 0;
  for (let l = 0; l < dim; l++) {
    start += v[l]! * w0[l]!;
    startAbs += Math.abs(v[l]! * w0[l]!);
  }
  return [{ g: a.lo, norm: s.hi, along, alongAbs, start, startAbs: startAbs + Math.abs(start) }];
}
