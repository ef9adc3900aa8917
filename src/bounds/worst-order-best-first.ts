/**
 * The worst order's second phase (docs/theory.md, "The worst order"): a best-first search over count vectors.
 *
 * Every order that reaches a state c makes |c| updates, so a state's promise f(c) = |c| + (a proved bound on
 * the updates still to come from ŵ(c)) is fixed by the state alone, and W* ≤ the largest promise among the
 * states not yet expanded. The search expands the state of largest promise first (A* for a longest path,
 * with the proved bound as its admissible estimate): it never expands a state whose promise is below W*, so
 * it needs no incumbent to cut well, and where the budget runs out the largest promise left is the tightest
 * upper end that the states it expanded can prove. It stops exact when that largest promise is no longer
 * above the longest order found.
 *
 * States are kept by their exact integer counts (an arena of 16-bit counts, a hash table of their indices),
 * never by float weights; a state's margins are summed afresh from its counts when it is expanded.
 */

/** What the best-first phase needs of the search that starts it (worst-order.ts). */
export interface BestFirstSearch {
  readonly n: number;
  readonly eta: number;
  /** G_ij = u_i·u_j, row by row. */
  readonly gram: Float64Array;
  /** ŵ(0)·u_i. */
  readonly rootMargins: Float64Array;
  /** Per certificate (separator): v·u_i, Σ_l |v_l u_il|, v·ŵ(0) and its absolute sum. */
  readonly along: readonly Float64Array[];
  readonly alongAbs: readonly Float64Array[];
  readonly start: Float64Array;
  readonly startAbs: Float64Array;
  /** ‖ŵ(0)‖² up. */
  readonly rootSquare: number;
  /** The proved root promise (the root's bound, floored). */
  readonly rootPromise: number;
  /** A proved bound on the updates still to come from a state at `depth` with v·ŵ(c) = along and ‖ŵ(c)‖² ≤ square. */
  readonly bound: (depth: number, square: number, along: Float64Array, alongAbs: Float64Array) => number;
  /** ‖ŵ(c + e_i)‖² up, from ‖ŵ(c)‖² up and ŵ(c)·u_i at `depth`. */
  readonly stepSquare: (depth: number, i: number, square: number, margin: number) => number;
  /** The longest order known (its length is the incumbent). */
  readonly best: Int32Array;
  /** The most states this phase may expand. */
  readonly budget: number;
  /** The most a count may reach (16-bit counts). */
  readonly maxCount: number;
}

export interface BestFirstResult {
  readonly exact: boolean;
  /** The longest order found (the incumbent, or longer). */
  readonly best: Int32Array;
  /** A proved upper bound on W* (its length when exact). */
  readonly upper: number;
  readonly expanded: number;
}

/** The largest root promise the phase takes on (its buckets are an array over promises); past it the depth-first bracket stands. */
export const MAX_BEST_FIRST_PROMISE = 2 ** 24;

/** The most bytes of kept states: past it the phase ends with a bracket (a budget of 10⁷ at n = 20 stays below). */
export const MAX_BEST_FIRST_BYTES = 2 ** 30;

/** Expands states of largest promise first until the longest order found is proved longest, or the budget ends. */
export function bestFirstPhase(search: BestFirstSearch): BestFirstResult {
  const { n, eta, gram, rootMargins, along: alongRows, alongAbs: alongAbsRows, start, startAbs } = search;
  const certificates = start.length;
  const states = new StateTable(n);
  // Zobrist-style keys: a state's hash is the sum of its points' constants, so a child's is its parent's plus one.
  const constants = new Int32Array(n);
  let mix = 0x9e3779b9 | 0;
  for (let i = 0; i < n; i++) {
    mix = (Math.imul(mix ^ (mix >>> 15), 0x2c1b3c6d) + 0x297a2d39) | 0;
    constants[i] = mix;
  }
  // Promises are integers from 0 to the root's: one stack of states per promise, the latest pushed taken first.
  const buckets = new PromiseBuckets(search.rootPromise);
  let best = search.best;
  const counts = new Uint16Array(n);
  states.add(counts, 0, -1, -1, search.rootSquare);
  buckets.push(search.rootPromise, 0);

  const margins = new Float64Array(n);
  const along = new Float64Array(certificates);
  const alongAbs = new Float64Array(certificates);
  const childAlong = new Float64Array(certificates);
  const childAlongAbs = new Float64Array(certificates);
  let expanded = 0;
  for (;;) {
    const top = buckets.top();
    if (top <= best.length) return { exact: true, best, upper: best.length, expanded };
    if (expanded >= search.budget || states.bytes() > MAX_BEST_FIRST_BYTES) return { exact: false, best, upper: top, expanded };
    const state = buckets.pop();
    expanded++;
    // The state's counts, margins and v·ŵ(c) (summed afresh from the counts: the same error bounds as the
    // depth-first search's carried sums, which add one Gram row an update).
    states.countsOf(state, counts);
    margins.set(rootMargins);
    along.set(start);
    alongAbs.set(startAbs);
    let depth = 0;
    for (let i = 0; i < n; i++) {
      const c = counts[i]!;
      if (c === 0) continue;
      depth += c;
      const step = eta * c;
      const row = i * n;
      for (let j = 0; j < n; j++) margins[j] = margins[j]! + step * gram[row + j]!;
      for (let k = 0; k < certificates; k++) {
        along[k] = along[k]! + step * alongRows[k]![i]!;
        alongAbs[k] = alongAbs[k]! + step * alongAbsRows[k]![i]!;
      }
    }
    const square = states.squareOf(state);
    const hash = states.hashOf(state);
    for (let i = 0; i < n; i++) {
      if (margins[i]! > 0) continue;
      if (counts[i]! >= search.maxCount) return { exact: false, best, upper: top, expanded };
      counts[i]!++;
      const childHash = (hash + constants[i]!) | 0;
      if (!states.has(counts, childHash)) {
        // A new state: a leaf is an order (a lower bound); any other is kept at its promise, at most its parent's.
        const row = i * n;
        let leaf = true;
        for (let j = 0; j < n && leaf; j++) if (!(margins[j]! + eta * gram[row + j]! > 0)) leaf = false;
        if (leaf) {
          states.add(counts, childHash, state, i, 0);
          if (depth + 1 > best.length) best = states.orderTo(state, i);
        } else {
          for (let k = 0; k < certificates; k++) {
            childAlong[k] = along[k]! + eta * alongRows[k]![i]!;
            childAlongAbs[k] = alongAbs[k]! + eta * alongAbsRows[k]![i]!;
          }
          const childSquare = search.stepSquare(depth, i, square, margins[i]!);
          const promise = Math.min(top, depth + 1 + Math.floor(search.bound(depth + 1, childSquare, childAlong, childAlongAbs)));
          const child = states.add(counts, childHash, state, i, childSquare);
          if (promise > best.length) buckets.push(promise, child);
        }
      }
      counts[i]!--;
    }
  }
}

/** States a chunk of the table holds: the table grows by chunks, never copying what it holds. */
const CHUNK_BITS = 14;
const CHUNK = 1 << CHUNK_BITS;
const IN_CHUNK = CHUNK - 1;

/** The states met so far, in chunks: their counts, parent and point (the order that reached them), hash and ‖ŵ‖² up. */
class StateTable {
  #size = 0;
  readonly #counts: Uint16Array[] = [];
  readonly #parent: Int32Array[] = [];
  readonly #point: Int32Array[] = [];
  readonly #hash: Int32Array[] = [];
  readonly #square: Float64Array[] = [];
  #mask = (1 << 12) - 1;
  #slots = new Int32Array(1 << 12).fill(-1);

  constructor(private readonly n: number) {}

  bytes(): number {
    return this.#counts.length * CHUNK * (2 * this.n + 20) + this.#slots.length * 4;
  }

  hashOf(state: number): number {
    return this.#hash[state >>> CHUNK_BITS]![state & IN_CHUNK]!;
  }

  squareOf(state: number): number {
    return this.#square[state >>> CHUNK_BITS]![state & IN_CHUNK]!;
  }

  /** Whether a state with these counts and hash is kept. */
  has(counts: Uint16Array, hash: number): boolean {
    const n = this.n;
    for (let slot = hash & this.#mask; ; slot = (slot + 1) & this.#mask) {
      const state = this.#slots[slot]!;
      if (state < 0) return false;
      if (this.hashOf(state) !== hash) continue;
      const chunk = this.#counts[state >>> CHUNK_BITS]!;
      const base = (state & IN_CHUNK) * n;
      let same = true;
      for (let i = 0; i < n; i++) {
        if (chunk[base + i] !== counts[i]) {
          same = false;
          break;
        }
      }
      if (same) return true;
    }
  }

  /** Keeps a new state (not already kept); returns its index. */
  add(counts: Uint16Array, hash: number, parent: number, point: number, square: number): number {
    const state = this.#size++;
    const chunk = state >>> CHUNK_BITS;
    const at = state & IN_CHUNK;
    if (at === 0) {
      this.#counts.push(new Uint16Array(CHUNK * this.n));
      this.#parent.push(new Int32Array(CHUNK));
      this.#point.push(new Int32Array(CHUNK));
      this.#hash.push(new Int32Array(CHUNK));
      this.#square.push(new Float64Array(CHUNK));
    }
    this.#counts[chunk]!.set(counts, at * this.n);
    this.#parent[chunk]![at] = parent;
    this.#point[chunk]![at] = point;
    this.#hash[chunk]![at] = hash;
    this.#square[chunk]![at] = square;
    if (this.#size * 2 > this.#mask) this.#rehash();
    else this.#place(state);
    return state;
  }

  countsOf(state: number, into: Uint16Array): void {
    const at = (state & IN_CHUNK) * this.n;
    into.set(this.#counts[state >>> CHUNK_BITS]!.subarray(at, at + this.n));
  }

  /** The order that reached `state`, then `last`. */
  orderTo(state: number, last: number): Int32Array {
    const reversed = [last];
    for (let at = state; ; ) {
      const parent = this.#parent[at >>> CHUNK_BITS]![at & IN_CHUNK]!;
      if (parent < 0) break;
      reversed.push(this.#point[at >>> CHUNK_BITS]![at & IN_CHUNK]!);
      at = parent;
    }
    return Int32Array.from(reversed.reverse());
  }

  #place(state: number): void {
    let slot = this.hashOf(state) & this.#mask;
    while (this.#slots[slot]! >= 0) slot = (slot + 1) & this.#mask;
    this.#slots[slot] = state;
  }

  #rehash(): void {
    this.#mask = this.#mask * 2 + 1;
    this.#slots = new Int32Array(this.#mask + 1).fill(-1);
    for (let state = 0; state < this.#size; state++) this.#place(state);
  }
}

/** A stack of states per integer promise, and the largest promise with a state. */
class PromiseBuckets {
  readonly #stacks: Int32Array[] = [];
  readonly #sizes: Int32Array;
  #top: number;

  constructor(largest: number) {
    this.#sizes = new Int32Array(largest + 1);
    this.#top = largest;
  }

  push(promise: number, state: number): void {
    let stack = this.#stacks[promise] ?? (this.#stacks[promise] = new Int32Array(64));
    const size = this.#sizes[promise]!;
    if (size === stack.length) {
      const grown = new Int32Array(size * 2);
      grown.set(stack);
      this.#stacks[promise] = stack = grown;
    }
    stack[size] = state;
    this.#sizes[promise] = size + 1;
    if (promise > this.#top) this.#top = promise;
  }

  /** The largest promise with a state waiting; −1 when none waits. */
  top(): number {
    while (this.#top >= 0 && this.#sizes[this.#top] === 0) this.#top--;
    return this.#top;
  }

  /** Takes a state of the largest promise (call top() first). */
  pop(): number {
    const promise = this.#top;
    const size = this.#sizes[promise]! - 1;
    this.#sizes[promise] = size;
    return this.#stacks[promise]![size]!;
  }
}
