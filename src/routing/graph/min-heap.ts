/**
 * A binary min-heap of (key, value) pairs in typed arrays. Decrease-key is done by pushing again and
 * skipping stale pops (callers compare the popped key with their best), which is faster in JS than
 * tracking positions.
 */
export class MinHeap {
  private keys = new Float64Array(256);
  private values = new Int32Array(256);
  size = 0;

  clear(): void {
    this.size = 0;
  }

  push(key: number, value: number): void {
    if (this.size === this.keys.length) {
      const k = new Float64Array(this.size * 2);
      k.set(this.keys);
      this.keys = k;
      const v = new Int32Array(this.size * 2);
      v.set(this.values);
      this.values = v;
    }
    let i = this.size++;
    const keys = this.keys;
    const values = this.values;
    while (i > 0) {
      const parent = (i - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[i] = keys[parent]!;
      values[i] = values[parent]!;
      i = parent;
    }
    keys[i] = key;
    values[i] = value;
  }

  /** Smallest key, Infinity when empty. */
  peekKey(): number {
    return this.size > 0 ? this.keys[0]! : Number.POSITIVE_INFINITY;
  }

  peekValue(): number {
    return this.values[0]!;
  }

  /** Removes the top; read it first with peekKey/peekValue. */
  pop(): void {
    const keys = this.keys;
    const values = this.values;
    const n = --this.size;
    if (n === 0) return;
    const key = keys[n]!;
    const value = values[n]!;
    let i = 0;
    for (;;) {
      let child = 2 * i + 1;
      if (child >= n) break;
      if (child + 1 < n && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[i] = keys[child]!;
      values[i] = values[child]!;
      i = child;
    }
    keys[i] = key;
    values[i] = value;
  }
}
