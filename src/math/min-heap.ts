/**
 * A binary min-heap under a strict order `less` (a total order on the items held: ties broken by the
 * caller, so the item on top is always the one a linear scan for the least would pick). Used where a
 * scan over every shard per run would cost O(shards): the next run of a k-way merge.
 */
export class MinHeap<T> {
  readonly #items: T[] = [];

  constructor(readonly less: (a: T, b: T) => boolean) {}

  /** The least item, or undefined when empty. */
  peek(): T | undefined {
    return this.#items[0];
  }

  push(item: T): void {
    const items = this.#items;
    items.push(item);
    let at = items.length - 1;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (!this.less(items[at]!, items[parent]!)) break;
      [items[at], items[parent]] = [items[parent]!, items[at]!];
      at = parent;
    }
  }

  /** Removes and returns the least item (undefined when empty). */
  pop(): T | undefined {
    const items = this.#items;
    const top = items[0];
    const last = items.pop();
    if (items.length > 0) {
      items[0] = last!;
      this.#siftDown();
    }
    return top;
  }

  /** Replaces the least item by `item` (one sift instead of a pop and a push). */
  replaceTop(item: T): void {
    this.#items[0] = item;
    this.#siftDown();
  }

  #siftDown(): void {
    const items = this.#items;
    const n = items.length;
    let at = 0;
    for (;;) {
      const left = 2 * at + 1;
      if (left >= n) break;
      const right = left + 1;
      const child = right < n && this.less(items[right]!, items[left]!) ? right : left;
      if (!this.less(items[child]!, items[at]!)) break;
      [items[at], items[child]] = [items[child]!, items[at]!];
      at = child;
    }
  }
}
