/** The greedy orders that seed the worst order's search with a first incumbent (docs/theory.md, "The worst order"). */

/** The adversarial rules a greedy order follows (docs/theory.md, "Adversarial orders"). */
export type GreedyRule = "most-violated" | "least-progress" | "cyclic";

/**
 * The order one greedy rule makes: at each step the mistaken point it picks (most-violated: the smallest
 * ŵ·u_i; least-progress: the smallest v·u_i; cyclic: the next mistaken one after the last update, in index
 * order), until none is mistaken. null past `limit` updates.
 */
export function greedyOrder(n: number, eta: number, rule: GreedyRule, along: Float64Array, gram: Float64Array, rootMargins: Float64Array, limit: number): Int32Array | null {
  const margins = Float64Array.from(rootMargins);
  const order: number[] = [];
  let last = n - 1;
  for (;;) {
    let pick = -1;
    for (let k = 0; k < n; k++) {
      const i = rule === "cyclic" ? (last + 1 + k) % n : k;
      if (margins[i]! > 0) continue;
      if (pick < 0) pick = i;
      else if (rule === "most-violated" && margins[i]! < margins[pick]!) pick = i;
      else if (rule === "least-progress" && along[i]! < along[pick]!) pick = i;
      if (rule === "cyclic") break;
    }
    if (pick < 0) return Int32Array.from(order);
    if (order.length >= limit) return null;
    order.push(pick);
    last = pick;
    for (let j = 0; j < n; j++) margins[j] = margins[j]! + eta * gram[pick * n + j]!;
  }
}
