/** Levels of the skip list: 2^18 is far more nodes than a 10,000-position polygon has edges. */
const LEVELS = 18;
const NIL = -1;

/**
 * The ordered set of edges a sweep line crosses, bottom to top: a doubly linked skip list over node
 * numbers `0 … capacity - 1` in typed arrays. Insertion finds its place through a caller's test, so
 * the order is whatever the sweep says it is at that moment; removal and neighbours take the node
 * itself, never a search (a search would compare at a point where the edge may touch others).
 * Expected O(log n) a step; the levels come from a fixed-seed generator, so a run is reproducible.
 */
export class SweepStatus {
  private readonly next: Int32Array;
  private readonly prev: Int32Array;
  private readonly height: Uint8Array;
  private readonly head: number;
  private readonly path = new Int32Array(LEVELS);
  private levels = 1;
  private seed = 0x2545f491;

  constructor(capacity: number) {
    this.head = capacity;
    this.next = new Int32Array((capacity + 1) * LEVELS).fill(NIL);
    this.prev = new Int32Array((capacity + 1) * LEVELS).fill(NIL);
    this.height = new Uint8Array(capacity + 1);
  }

  /**
   * Inserts `node` after every node for which `isBelow` says true, walking up from the bottom: the
   * test must hold for a prefix of the present order (it may note what it sees, e.g. a contact).
   */
  insert(node: number, isBelow: (other: number) => boolean): void {
    const { next, prev, path } = this;
    let at = this.head;
    for (let level = this.levels - 1; level >= 0; level--) {
      let n = next[at * LEVELS + level]!;
      while (n !== NIL && isBelow(n)) {
        at = n;
        n = next[at * LEVELS + level]!;
      }
      path[level] = at;
    }
    const h = this.randomHeight();
    for (let level = this.levels; level < h; level++) path[level] = this.head;
    if (h > this.levels) this.levels = h;
    this.height[node] = h;
    for (let level = 0; level < h; level++) {
      const p = path[level]!;
      const n = next[p * LEVELS + level]!;
      next[node * LEVELS + level] = n;
      prev[node * LEVELS + level] = p;
      next[p * LEVELS + level] = node;
      if (n !== NIL) prev[n * LEVELS + level] = node;
    }
  }

  remove(node: number): void {
    const { next, prev } = this;
    for (let level = 0; level < this.height[node]!; level++) {
      const p = prev[node * LEVELS + level]!;
      const n = next[node * LEVELS + level]!;
      next[p * LEVELS + level] = n;
      if (n !== NIL) prev[n * LEVELS + level] = p;
    }
  }

  /** The node just below `node`, or -1. */
  below(node: number): number {
    const p = this.prev[node * LEVELS]!;
    return p === this.head ? NIL : p;
  }

  /** The node just above `node`, or -1. */
  above(node: number): number {
    return this.next[node * LEVELS]!;
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
