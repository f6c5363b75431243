import type { Hierarchy } from './contract.js';

/**
 * A contraction hierarchy laid out for queries, built when a graph is opened. Nodes are renumbered by
 * rank, highest first: every search climbs to the same top of the hierarchy, whose nodes then share cache
 * lines instead of being spread over the whole graph (queries run about twice as fast with a cold cache,
 * as between requests). Each edge's head, seconds and meters sit side by side for the same reason. Edges
 * keep their order within a node, so a search expands them in the order the stored hierarchy has.
 */
export class SearchGraph {
  readonly n: number;
  /** Graph node → search id. */
  readonly idOf: Uint32Array;
  /** Per search id, where its up edges start in `up` (in edges, not floats). */
  readonly upStart: Uint32Array;
  /** Per up edge, three 8-byte slots: head (search id, read through `upHead` at 6 × edge), seconds, meters. */
  readonly up: Float64Array;
  readonly upHead: Uint32Array;
  /** Per up edge, its index in the stored hierarchy (to unpack shortcuts). */
  readonly upEdge: Uint32Array;
  readonly downStart: Uint32Array;
  /** Per down edge (stored at its lower end, from a higher node): that higher node, seconds, meters. */
  readonly down: Float64Array;
  readonly downHead: Uint32Array;
  readonly downEdge: Uint32Array;

  constructor(ch: Hierarchy) {
    const n = ch.rank.length;
    this.n = n;
    this.idOf = new Uint32Array(n);
    const nodeOf = new Uint32Array(n);
    for (let v = 0; v < n; v++) {
      const id = n - 1 - ch.rank[v]!;
      this.idOf[v] = id;
      nodeOf[id] = v;
    }
    const up = layout(this.idOf, nodeOf, ch.upStart, ch.upNode, ch.upWeight, ch.upMeters);
    this.upStart = up.start;
    this.up = up.rows;
    this.upHead = up.head;
    this.upEdge = up.edge;
    const down = layout(this.idOf, nodeOf, ch.downStart, ch.downNode, ch.downWeight, ch.downMeters);
    this.downStart = down.start;
    this.down = down.rows;
    this.downHead = down.head;
    this.downEdge = down.edge;
  }
}

function layout(
  idOf: Uint32Array,
  nodeOf: Uint32Array,
  start: Uint32Array,
  node: Uint32Array,
  weight: Float64Array,
  meters: Float64Array,
): { start: Uint32Array; rows: Float64Array; head: Uint32Array; edge: Uint32Array } {
  const n = idOf.length;
  const outStart = new Uint32Array(n + 1);
  const rows = new Float64Array(node.length * 3);
  // The head as an integer in the first slot (an index read as a double costs a conversion per edge).
  const head = new Uint32Array(rows.buffer);
  const edge = new Uint32Array(node.length);
  let k = 0;
  for (let id = 0; id < n; id++) {
    outStart[id] = k;
    const v = nodeOf[id]!;
    for (let i = start[v]!, end = start[v + 1]!; i < end; i++, k++) {
      head[6 * k] = idOf[node[i]!]!;
      rows[3 * k + 1] = weight[i]!;
      rows[3 * k + 2] = meters[i]!;
      edge[k] = i;
    }
  }
  outStart[n] = k;
  return { start: outStart, rows, head, edge };
}
