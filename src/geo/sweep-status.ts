/** Levels of the skip list: 2^18 is far more nodes than a 10,000-position polygon has edges. */
const LEVELS = 18;

/**
 * The ordered set of edges a sweep line crosses, bottom to top: a doubly linked skip list over node
 * numbers `0 … capacity - 1` in typed arrays. Insertion finds its place through a caller's test, so
 * the order is whatever the sweep says it is at that moment; removal and neighbours take the node
 * itself, never a search (a search would compare at a point where the edge may touch others).
 * Expected O(log n) a step; the levels come from a fixed-seed generator, so a run is reproducible.
 *
 * Inside, node k is slot k + 1 and slot 0 is the head, so a link of 0 is "none" (after the last
 * node) or the head (before the first), and the arrays need no filling: they start as all zeros.
 */
export class SweepStatus {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly height: Uint8Array;
  private readonly path = new Int32Array(LEVELS);
  private levels = 1;
  private seed = 0x2545f491;

  constructor(capacity: number) {
    this.next = new Int32Array((capacity + 1) * LEVELS);
    this.prev = new Int32Array((capacity + 1) * LEVELS);
    this.height = new Uint8Array(capacity + 1);
  }

  /**
   * Inserts `node` after every node for which `isBelow` says true, walking up from the bottom: the
   * test must hold for a prefix of the present order (it may note what it sees, e.g. a contact).
   */
  insert(node: number, isBelow: (other: number) => boolean): void {
    const { next, prev, path } = this;
    let at = 0;
    for (let level = this.levels - 1; level >= 0; level--) {
      let n = next[at * LEVELS + level]!;
      while (n !== 0 && isBelow(n - 1)) {
        at = n;
        n = next[at * LEVELS + level]!;
      }
      path[level] = at;
    }
    const h = this.randomHeight();
    for (let level = this.levels; level < h; level++) path[level] = 0;
    if (h > this.levels) this.levels = h;
    const slot = node + 1;
    this.height[slot] = h;
    for (let level = 0; level < h; level++) {
      const p = path[level]!;
      const n = next[p * LEVELS + level]!;
      next[slot * LEVELS + level] = n;
      prev[slot * LEVELS + level] = p;
      next[p * LEVELS + level] = slot;
      if (n !== 0) prev[n * LEVELS + level] = slot;
    }
  }

  remove(node: number): void {
    const { next, prev } = this;
    const slot = node + 1;
    for (let level = 0; level < this.height[slot]!; level++) {
      const p = prev[slot * LEVELS + level]!;
      const n = next[slot * LEVELS + level]!;
      next[p * LEVELS + level] = n;
      if (n !== 0) prev[n * LEVELS + level] = p;
    }
  }

  /** The node just below `node`, or -1. */
  below(node: number): number {
    return this.prev[(node + 1) * LEVELS]! - 1;
  }

  /** The node just above `node`, or -1. */
  above(node: number): number {
    return this.next[(node + 1) * LEVELS]! - 1;
  }

  /** 1 + the number of trailing heads in a fair coin's run: level k holds about n / 2^k nodes. */
  private randomHeight(): number {
    // xorshift32: cheap, and 32 fresh bits a call.
    let x = this.seed;
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    this.seed = x;
    let h = 1;
    while (h < LEVELS && (x & 1) === 1) {
      h++;
      x >>>= 1;
    }
    return h;
  }
}
