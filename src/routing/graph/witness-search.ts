import { MinHeap } from './min-heap.js';

/** The live edges of a graph under contraction: per node, ids of its out and in edges. */
export interface LiveEdges {
  readonly outs: ReadonlyArray<readonly number[]>;
  readonly to: ReadonlyArray<number>;
  readonly weight: ReadonlyArray<number>;
}

/**
 * The bounded Dijkstra that decides whether a shortcut u→w around v is needed: from u, never through v,
 * it looks for a path to each target no longer than the one over v. It gives up at a cost limit or after
 * `maxSettled` nodes; a target it did not reach then gets its shortcut, which is never wrong, only one
 * edge more than needed. Settling every target ends it early.
 */
export class WitnessSearch {
  private readonly dist: Float64Array;
  private readonly seen: Uint32Array;
  private readonly target: Uint32Array;
  private stamp = 0;
  private readonly heap = new MinHeap();

  constructor(
    nodeCount: number,
    private readonly edges: LiveEdges,
  ) {
    this.dist = new Float64Array(nodeCount);
    this.seen = new Uint32Array(nodeCount);
    this.target = new Uint32Array(nodeCount);
  }

  run(u: number, skip: number, targets: readonly number[], limit: number, maxSettled: number): void {
    const { dist, seen, target, heap, edges } = this;
    const stamp = ++this.stamp;
    let left = 0;
    for (const w of targets) {
      if (target[w] !== stamp) left++;
      target[w] = stamp;
    }
    heap.clear();
    dist[u] = 0;
    seen[u] = stamp;
    heap.push(0, u);
    let settled = 0;
    while (heap.size > 0) {
      const d = heap.peekKey();
      const x = heap.peekValue();
      heap.pop();
      if (d > dist[x]!) continue;
      if (d > limit || ++settled > maxSettled) break;
      if (target[x] === stamp && --left === 0) break;
      for (const e of edges.outs[x]!) {
        const y = edges.to[e]!;
        if (y === skip) continue;
        const nd = d + edges.weight[e]!;
        if (seen[y] !== stamp || nd < dist[y]!) {
          seen[y] = stamp;
          dist[y] = nd;
          heap.push(nd, y);
        }
      }
    }
  }

  /** The cost the last run found to `w` (an upper bound of the true one), Infinity when not reached. */
  reached(w: number): number {
    return this.seen[w] === this.stamp ? this.dist[w]! : Number.POSITIVE_INFINITY;
  }
}
